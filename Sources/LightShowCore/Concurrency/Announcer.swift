import Synchronization

/// Where one part of the program says "something changed" to whoever listens, on the thread that made the change:
/// new frames for the viewer (which then draws right there, saving a wake-up per frame), or a change in what the
/// daemon's STATUS= line shows (so the line is pushed, not polled). Until someone listens, announcements go
/// nowhere. The listener must return quickly: it runs inside the announcer's caller.
public final class Announcer: Sendable {
    private let listener = Mutex<Callback<Void, Void>?>(nil)

    public init() {}

    /// `body` hears every later announcement, in place of any earlier listener; nil stops listening.
    public func listen(_ body: (@Sendable () -> Void)?) {
        let boxed = body.map { body in Callback<Void, Void> { body() } }
        listener.withLock { $0 = boxed }
    }

    public func announce() {
        listener.withLock { $0 }?.call(())
    }
}
