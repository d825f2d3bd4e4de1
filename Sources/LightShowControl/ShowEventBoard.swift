import LightShowCore
import Synchronization

/// The newest scene and frame events, each with a sequence number, for every kind of viewer (control-socket
/// subscribers, WebSocket viewers): the show writes here and never waits for a viewer; each viewer takes the newest
/// when it is ready for one (`ShowEventPacer`), so a slow one skips frames rather than growing a queue.
public final class ShowEventBoard: Sendable {
    /// One event as sent: its line (newline-terminated JSON) and when it was posted.
    public struct Event: Sendable, Equatable {
        public var sequence: UInt64
        public var line: [UInt8]
        /// Frames posted so far, this one included (0 for a scene): how many a viewer skipped.
        public var frameNumber: UInt64 = 0
    }

    /// The newest of each kind.
    public struct Latest: Sendable, Equatable {
        public var scene: Event?
        public var frame: Event?
    }

    /// What changed, for listeners that only care about one kind.
    public enum Change: Sendable { case frame, scene }

    private struct State {
        var latest = Latest()
        var sequence: UInt64 = 0
        var frames: UInt64 = 0
        var listeners: [UInt64: Callback<Change, Void>] = [:]
        var nextListener: UInt64 = 1
    }

    private let state = Mutex(State())

    public init() {}

    public var latest: Latest { state.withLock { $0.latest } }

    /// Replaces the newest frame event and tells the listeners.
    public func publishFrame(_ event: JSONValue) {
        post(event.line, as: .frame)
    }

    /// Replaces the scene event (colours, gradient, proportions, bands) and tells the listeners: a viewer gets it on
    /// subscribing and again whenever it changes, before its next frame.
    public func publishScene(_ event: JSONValue) {
        post(event.line, as: .scene)
    }

    /// Posts an event line as it came from another board (the web server relays the daemon's stream): `line` is
    /// newline-terminated JSON.
    public func publish(line: [UInt8], as change: Change) {
        post(line, as: change)
    }

    private func post(_ line: [UInt8], as change: Change) {
        let listeners = state.withLock { state in
            state.sequence += 1
            var event = Event(sequence: state.sequence, line: line)
            switch change {
            case .frame:
                state.frames += 1
                event.frameNumber = state.frames
                state.latest.frame = event
            case .scene: state.latest.scene = event
            }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.call(change) }
    }

    /// Tells the listeners to look again with no new event: a viewer that held back a frame not yet due, waiting
    /// for the next frame to ring, sends it now (the stream went quiet).
    public func remind() {
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener.call(.frame) }
    }

    /// `body` hears of every later change, on the publisher's thread (it must return quickly); the number returned
    /// stops it with `stopListening`.
    public func listen(_ body: @escaping @Sendable (Change) -> Void) -> UInt64 {
        state.withLock { state in
            defer { state.nextListener += 1 }
            state.listeners[state.nextListener] = Callback(body)
            return state.nextListener
        }
    }

    public func stopListening(_ id: UInt64) {
        _ = state.withLock { $0.listeners.removeValue(forKey: id) }
    }

    /// How many listen now.
    public var listenerCount: Int { state.withLock { $0.listeners.count } }
}
