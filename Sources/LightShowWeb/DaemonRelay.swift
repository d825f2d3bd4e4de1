public import LightShowControl
public import LightShowCore
import LightShowSystem
import Synchronization

/// The web server's view of the show: while some WebSocket viewer watches, the daemon's `subscribe` stream, read on
/// a thread of its own and posted line for line (not decoded and encoded again) to the board the viewers take
/// frames from. With nobody watching it unsubscribes, so an idle page server costs the daemon no frames.
public final class DaemonRelay: Sendable {
    public let events = ShowEventBoard()
    public let path: String
    private let framesPerSecond: Double
    private let onProblem: @Sendable (String) -> Void
    private struct State {
        var wanted = false
        /// The stream being read; only the reader thread sets it, `want(false)` takes it to end it.
        var stream: ControlEventStream?
        /// The stream was ended here, not by the daemon.
        var endedHere = false
    }
    private let state = Mutex(State())
    /// Rings the reader thread when `wanted` may have changed; closed by `close()`.
    private let bell = BoundedQueue<Void>(capacity: 1)

    /// Starts the reader thread (idle until `want(true)`); `onProblem` hears why a subscription failed or ended while
    /// viewers still watched (then it is tried again a second later), on the reader thread.
    public init(path: String, framesPerSecond: Double, onProblem: @escaping @Sendable (String) -> Void) throws(LightShowError) {
        self.path = path
        self.framesPerSecond = framesPerSecond
        self.onProblem = onProblem
        try DedicatedThread.start(name: "ls-relay") { [self] in run() }
    }

    /// Subscribes while `watching`, unsubscribes when not.
    public func want(_ watching: Bool) {
        let stream = state.withLock { state -> ControlEventStream? in
            state.wanted = watching
            guard !watching, let stream = state.stream.take() else { return nil }
            state.endedHere = true
            return stream
        }
        stream?.close()
        _ = bell.tryPush(())
    }

    /// Ends the stream and the reader thread.
    public func close() {
        bell.close()
        want(false)
    }

    /// How long after a failed or broken subscription the next try comes.
    static let retryNanoseconds: UInt64 = 1_000_000_000

    private func run() {
        var retry: UInt64?
        while true {
            // A change of `wanted`, or the time to try again.
            if case .some(nil) = bell.pop(until: retry) { return }
            retry = nil
            guard state.withLock({ $0.wanted }) else { continue }
            do throws(LightShowError) {
                let stream = try ControlClient.connect(to: path, timeoutSeconds: 5).subscribe(fps: framesPerSecond)
                let registered = state.withLock { state -> Bool in
                    guard state.wanted else { return false }
                    state.stream = stream
                    state.endedHere = false
                    return true
                }
                guard registered else {
                    stream.close()
                    continue
                }
                let reason = Self.relay(stream, to: events)
                let endedHere = state.withLock { state in
                    defer {
                        state.endedHere = false
                        state.stream = nil
                    }
                    return state.endedHere
                }
                if endedHere {
                    // Watched again meanwhile: subscribe again.
                    if state.withLock({ $0.wanted }) { _ = bell.tryPush(()) }
                    continue
                }
                onProblem(reason)
            } catch {
                onProblem(error.message)
            }
            retry = MonotonicClock.now() &+ Self.retryNanoseconds
        }
    }

    /// Posts every event line until the stream ends; returns why it ended.
    private static func relay(_ stream: ControlEventStream, to events: ShowEventBoard) -> String {
        let frame = Array(#"{"event":"\#(ShowFrameEvent.name)""#.utf8)
        let scene = Array(#"{"event":"\#(ShowSceneEvent.name)""#.utf8)
        do {
            while var line = try stream.nextLine() {
                // The daemon writes "event" first, which spares parsing 60 lines a second; anything else is parsed.
                let change: ShowEventBoard.Change
                if line.starts(with: frame) {
                    change = .frame
                } else if line.starts(with: scene) {
                    change = .scene
                } else {
                    switch (try? JSONParser.parse(line))?["event"]?.stringValue {
                    case ShowFrameEvent.name?: change = .frame
                    case ShowSceneEvent.name?: change = .scene
                    default: continue  // a reply, or an event viewers don't get
                    }
                }
                line.append(UInt8(ascii: "\n"))
                events.publish(line: line, as: change)
            }
            return "the daemon closed the stream"
        } catch {
            return "the stream broke: \(error)"
        }
    }
}
