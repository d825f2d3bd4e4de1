/// One viewer's place in the stream from a `ShowEventBoard`: the scene whenever it changed, then the newest frame
/// at most once per `interval`. A pure value: the caller supplies the time and sends what it is given.
public struct ShowEventPacer: Sendable, Equatable {
    public var interval: Double
    /// When the next frame may go.
    public var nextDue: Double
    /// The newest frame and scene this viewer was given (0: none yet).
    public var lastFrameSequence: UInt64 = 0
    public var lastSceneSequence: UInt64 = 0

    public init(framesPerSecond: Double, now: Double) {
        interval = 1 / framesPerSecond
        nextDue = now
    }

    /// A new rate, keeping what was already sent.
    public mutating func setRate(framesPerSecond: Double, now: Double) {
        interval = 1 / framesPerSecond
        nextDue = now
    }

    /// The lines due now: the scene if it changed, then the newest frame if one is new and its time has come.
    public mutating func take(_ latest: ShowEventBoard.Latest, now: Double) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        if let scene = latest.scene, scene.sequence > lastSceneSequence {
            lines.append(scene.line)
            lastSceneSequence = scene.sequence
        }
        if let frame = latest.frame, frame.sequence > lastFrameSequence, now >= nextDue {
            lines.append(frame.line)
            lastFrameSequence = frame.sequence
            nextDue += interval
            // Behind by more than a frame (a pause in the stream): restart the schedule from now.
            if nextDue < now { nextDue = now }
        }
        return lines
    }

    /// Seconds until something is due (0: at once), or nil when nothing waits and only a new event will change that.
    public func wait(for latest: ShowEventBoard.Latest, now: Double) -> Double? {
        if let scene = latest.scene, scene.sequence > lastSceneSequence { return 0 }
        if let frame = latest.frame, frame.sequence > lastFrameSequence { return max(0, nextDue - now) }
        return nil
    }
}
