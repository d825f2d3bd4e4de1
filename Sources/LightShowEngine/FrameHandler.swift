public import LightShowCore

/// A sink made of closures, for outputs that are a line of code (the daemon's status keeping, tests).
public final class FrameHandler: ShowSink {
    private let onFrame: @Sendable (ShowFrame) throws -> Void
    private let onDone: @Sendable () -> Void

    public init(_ onFrame: @escaping @Sendable (ShowFrame) throws -> Void, framesDone: @escaping @Sendable () -> Void = {}) {
        self.onFrame = onFrame
        onDone = framesDone
    }

    public func show(_ frame: ShowFrame) throws { try onFrame(frame) }
    public func framesDone() { onDone() }
}
