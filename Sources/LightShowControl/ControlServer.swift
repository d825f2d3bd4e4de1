public import LightShowSystem
public import LightShowCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's control socket: newline-delimited JSON requests answered by `Handler`, and `subscribe`
/// streams of frame events. Clients are served by a poll loop on a thread of its own, so no client
/// (slow, silent or hostile) can block the cooperative pool or the producer of frames.
public final class ControlServer<Handler: ControlCommandHandler>: Sendable {
    public struct Options: Sendable {
        /// Most clients served at once; more are told so and closed.
        public var maxClients: Int
        /// Longest request line accepted.
        public var maxLineBytes = 65_536
        /// Frame rate of `subscribe` without `fps`, and the highest one allowed.
        public var defaultFPS: Double = 30
        public var maxFPS: Double = 240

        /// A client with no complete request for this long (silent, or stuck half-way through a line) is closed.
        public var idleSeconds: Double

        /// Most connections at once from this process's own children (the daemon's web server, whose commands
        /// and frames come over a few connections of its own), served besides `maxClients`: however busy the web
        /// is, local clients (`ctl`, `systemctl reload`, viewers) keep their slots.
        public var maxChildClients = 8

        public init(maxClients: Int = 16, idleSeconds: Double = 10) {
            self.maxClients = maxClients
            self.idleSeconds = idleSeconds
        }
    }

    /// What the loop and the rest of the process hand each other, under one lock.
    struct Inbox {
        var replies: [(connection: UInt64, line: [UInt8])] = []
        var state = RunState.created
        var loopStarted = false
        var clients = 0
        var subscribers = 0
    }

    enum RunState { case created, running, stopping, stopped }

    public let path: String
    let options: Options
    let handler: Handler
    let listener: ControlListener
    /// Wakes the poll loop.
    let wakeup: WakeSignal
    let inbox = Mutex(Inbox())
    /// Whether the loop has ended (or never ran), and who waits for it to end.
    private let ending = Mutex<(ended: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    /// The newest scene and frame, shared with the daemon's other viewers (the web's).
    public let events: ShowEventBoard
    /// This server's listener on `events` while it runs (0: none).
    private let eventListener = Atomic<UInt64>(0)

    /// Binds the socket at `path` (replacing a stale one); call `start()` to serve and `shutdown()` to stop.
    /// Subscribers are fed from `events`.
    public init(
        path: String, handler: Handler, options: Options = Options(), events: ShowEventBoard = ShowEventBoard()
    ) throws(SystemCallError) {
        let wakeup = try WakeSignal()
        self.wakeup = wakeup
        listener = try ControlListener(path: path)
        self.path = path
        self.handler = handler
        self.options = options
        self.events = events
    }

    /// Starts serving on a dedicated thread.
    public func start() {
        let shouldStart = inbox.withLock { inbox in
            guard inbox.state == .created else { return false }
            inbox.state = .running
            inbox.loopStarted = true
            return true
        }
        guard shouldStart else { return }
        eventListener.store(events.listen { [weak self] change in self?.eventPosted(change) }, ordering: .relaxed)
        do {
            try DedicatedThread.start(name: "ls-control") { [self] in
                ControlEventLoop(server: self).run()
                loopEnded()
            }
        } catch {
            // No thread, no loop: nobody must wait for one.
            inbox.withLock { $0.loopStarted = false }
        }
    }

    /// Stops serving: the socket file goes at once (no new client can connect), and the loop closes every client
    /// and ends on its thread soon after. Never waits, so async code may call it; `stopped()` waits for the end.
    /// Safe to call more than once and from several threads.
    public func shutdown() {
        let loopStarted = inbox.withLock { inbox in
            if inbox.state == .running || inbox.state == .created { inbox.state = .stopping }
            return inbox.loopStarted
        }
        listener.removeFile()
        if loopStarted {
            wake()
        } else {
            loopEnded()
        }
    }

    /// Waits, suspended, until the loop has ended and every client is closed (at once if it never ran).
    public func stopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = ending.withLock { ending in
                if !ending.ended { ending.waiters.append(continuation) }
                return ending.ended
            }
            if ended { continuation.resume() }
        }
    }

    /// After the loop (or instead of one): the listener closes once, and whoever waits for the end hears of it.
    private func loopEnded() {
        let closeNow = inbox.withLock { inbox in
            guard inbox.state != .stopped else { return false }
            inbox.state = .stopped
            return true
        }
        if closeNow { listener.close() }
        events.stopListening(eventListener.exchange(0, ordering: .relaxed))
        let waiters = ending.withLock { ending in
            ending.ended = true
            defer { ending.waiters.removeAll() }
            return ending.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    deinit {
        // Running loops hold the server, so only a server never started (or already stopped) gets here.
        if inbox.withLock({ $0.state == .created }) { listener.close() }
    }

    /// Offers a frame event to every subscriber. Each gets only the newest frame when it is ready for one,
    /// so this never waits for a client.
    public func publishFrame(_ event: JSONValue) {
        events.publishFrame(event)
    }

    /// Sets the scene event (colours, gradient, proportions, bands): each subscriber gets it on subscribing and
    /// again whenever it changes, before its next frame, so viewers draw the daemon's scene.
    public func publishScene(_ event: JSONValue) {
        events.publishScene(event)
    }

    /// A scene always wakes the loop: a client subscribing later gets the loop's copy, so the loop must see it.
    /// A frame only when someone subscribes.
    private func eventPosted(_ change: ShowEventBoard.Change) {
        if change == .scene || inbox.withLock({ $0.subscribers > 0 }) { wake() }
    }

    /// Connected clients and, among them, subscribers (for STATUS= and `status`).
    public var connectionCounts: (clients: Int, subscribers: Int) {
        inbox.withLock { ($0.clients, $0.subscribers) }
    }
    /// Told when `connectionCounts` change, on the loop's thread.
    public let countChanges = Announcer()

    /// Frames subscribers dropped, summed over them (`ShowEventPacer.takeDropped`: turns a subscriber missed while
    /// it had not taken the frame before; frames left out to keep its `fps` are not dropped).
    public var droppedFrames: UInt64 { dropped.load(ordering: .relaxed) }
    let dropped = Atomic<UInt64>(0)

    // MARK: - Used by the loop

    func wake() {
        wakeup.signal()
    }

    /// Runs a request on the handler off the loop thread and posts the reply back.
    func submit(_ request: ControlRequest, connection: UInt64, from peer: ControlPeer) {
        Task { [self] in
            let reply = await handler.handle(request.command, arguments: request.arguments, from: peer)
            inbox.withLock { $0.replies.append((connection, request.replyLine(reply))) }
            wake()
        }
    }
}
