import LightShowCore
import Synchronization

/// Where a feed says that new frames are waiting, on whatever thread made them (the audio's, the daemon
/// connection's). The viewer listens and draws right there when it can, which saves waking a second thread for
/// every frame. Until someone listens, announcements go nowhere.
public final class FrameAnnouncer: Sendable {
    private let listener = Mutex<Callback<Void, Void>?>(nil)

    public init() {}

    /// `body` hears every later announcement, in place of any earlier listener; nil stops listening.
    public func listen(_ body: (@Sendable () -> Void)?) {
        let boxed = body.map { body in Callback<Void, Void> { body() } }
        listener.withLock { $0 = boxed }
    }

    /// New frames are waiting. Called once per batch of frames (an audio block), not per frame.
    public func announce() {
        listener.withLock { $0 }?.call(())
    }
}
