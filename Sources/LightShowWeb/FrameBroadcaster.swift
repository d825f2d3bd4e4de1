import LightShowControl
import LightShowCore
import LightShowSystem
import NIOCore
import NIOWebSocket
import Synchronization

/// Sends the show's events to every WebSocket viewer of `/api/frames` from the server's one event loop. Per frame the
/// show's thread at most hands one job to the loop, and only when some viewer's turn has come; there each event is
/// framed once, and the same buffer (shared, not copied) is written to each viewer whose turn it is
/// (`ViewerOutlet`). With 100 viewers at 30 fps, a set of tasks per viewer woken per frame cost the daemon 8-9% of a
/// core; this costs 5-6%, most of it the kernel's socket writes (Tests/Benchmarks/web.sh).
final class FrameBroadcaster: Sendable {
    let loop: any EventLoop
    private let events: ShowEventBoard
    private let tally: ViewerTally
    private let stallSeconds: Double
    private let state: NIOLoopBoundBox<State>
    /// The earliest time a writable viewer's next frame is due, in seconds of the monotonic clock (infinity: none
    /// is), read on the show's thread to decide whether a frame needs the loop at all.
    private let earliestDue = Atomic<UInt64>(Double.infinity.bitPattern)
    /// A job is on its way to the loop: a frame posted before it runs needs no second one.
    private let jobQueued = Atomic(false)
    private let listener = Mutex<UInt64?>(nil)
    private let nextID = Atomic<UInt64>(1)

    private struct State {
        var viewers: [ViewerOutlet] = []
        /// Runs while some viewer watches: with none, the server's loop sleeps.
        var reminder: RepeatedTask?
        /// The newest scene and frame as WebSocket frames, made when a viewer first needs them.
        var scene: Framed?
        var frame: Framed?
    }

    init(events: ShowEventBoard, loop: any EventLoop, tally: ViewerTally, stallSeconds: Double) {
        self.events = events
        self.loop = loop
        self.tally = tally
        self.stallSeconds = stallSeconds
        state = .makeBoxSendingValue(State(), eventLoop: loop)
    }

    /// Listens to the show (on its thread); `stop` ends that.
    func start() {
        let id = events.listen { [self] change in posted(change) }
        listener.withLock { $0 = id }
    }

    func stop() {
        if let id = listener.withLock({ $0.take() }) { events.stopListening(id) }
        loop.execute { [self] in state.value.reminder.take()?.cancel() }
    }

    /// Adds the viewer on `channel`, an upgraded WebSocket connection of this loop, and sends it the scene and the
    /// newest frame; the number returned is for `leave`.
    func join(_ channel: any Channel, framesPerSecond: Double) async throws -> UInt64 {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        try await loop.submit { [self] in
            guard channel.eventLoop.inEventLoop else { throw WebSocketViewerError.foreignEventLoop }
            let operations = channel.pipeline.syncOperations
            let outlet = ViewerOutlet(id: id, framesPerSecond: framesPerSecond, stallSeconds: stallSeconds, broadcaster: self)
            try operations.addHandler(outlet, position: .before(try operations.handler(type: WebSocketFrameEncoder.self)))
            state.value.viewers.append(outlet)
            if state.value.reminder == nil { state.value.reminder = QuietStreamReminder.start(events: events, on: loop) }
            send(to: outlet, now: MonotonicClock.seconds())
        }.get()
        return id
    }

    /// Sends nothing more to the viewer `id`.
    func leave(_ id: UInt64) {
        loop.execute { [self] in
            state.value.viewers.removeAll { $0.id == id }
            if state.value.viewers.isEmpty {
                state.value.reminder.take()?.cancel()
                (state.value.scene, state.value.frame) = (nil, nil)
                earliestDue.store(Double.infinity.bitPattern, ordering: .relaxed)
            }
        }
    }

    /// A viewer's socket took its backlog: it gets what it missed now, not at the next frame.
    func drained(_ outlet: ViewerOutlet) {
        guard state.value.viewers.contains(where: { $0 === outlet }) else { return }
        send(to: outlet, now: MonotonicClock.seconds())
    }

    /// On the show's thread, for every event (and reminder): cheap unless some viewer's turn came.
    private func posted(_ change: ShowEventBoard.Change) {
        // A new scene goes to every viewer at once (it is rare); a frame only when a viewer's turn has come.
        if change == .frame {
            let due = Double(bitPattern: earliestDue.load(ordering: .relaxed))
            guard due.isFinite, MonotonicClock.seconds() >= due else { return }
        }
        guard !jobQueued.exchange(true, ordering: .acquiringAndReleasing) else { return }
        loop.execute { [self] in
            jobQueued.store(false, ordering: .releasing)
            sendToAll(now: MonotonicClock.seconds())
        }
    }

    /// Sends each viewer what is due to it, and works out when the next turn comes.
    private func sendToAll(now: Double) {
        let latest = events.latest
        var dropped: UInt64 = 0
        var earliest = Double.infinity
        for outlet in state.value.viewers {
            dropped &+= outlet.send(latest, now: now, frame: framed)
            // A viewer whose socket is full waits for it to drain (`drained`), not for its turn.
            if outlet.isWritable { earliest = min(earliest, outlet.pacer.nextDue) }
        }
        tally.add(dropped: dropped)
        earliestDue.store(earliest.bitPattern, ordering: .relaxed)
    }

    /// Sends one viewer what is due to it, and brings its next turn into the earliest.
    private func send(to outlet: ViewerOutlet, now: Double) {
        tally.add(dropped: outlet.send(events.latest, now: now, frame: framed))
        guard outlet.isWritable else { return }
        let earliest = min(Double(bitPattern: earliestDue.load(ordering: .relaxed)), outlet.pacer.nextDue)
        earliestDue.store(earliest.bitPattern, ordering: .relaxed)
    }

    /// `event` as a WebSocket text frame, made once.
    private func framed(_ event: ShowEventBoard.Event) -> ByteBuffer {
        // The board numbers frames from 1; a scene has none.
        let slot: WritableKeyPath<State, Framed?> = event.frameNumber == 0 ? \.scene : \.frame
        if let made = state.value[keyPath: slot], made.sequence == event.sequence { return made.bytes }
        let bytes = WebSocketTextFrame.encode(event.line.dropLast(), allocator: ByteBufferAllocator())
        state.value[keyPath: slot] = Framed(sequence: event.sequence, bytes: bytes)
        return bytes
    }
}

/// An event of the board as a WebSocket frame.
private struct Framed {
    var sequence: UInt64
    var bytes: ByteBuffer
}

/// Why a WebSocket viewer could not join.
enum WebSocketViewerError: Error, CustomStringConvertible {
    case foreignEventLoop

    var description: String {
        switch self {
        case .foreignEventLoop: "the viewer's connection is not on the web server's event loop"
        }
    }
}
