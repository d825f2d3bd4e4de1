import LightShowCore

/// One viewer's place in the stream from a `ShowEventBoard`: the scene whenever it changed, then the newest frame
/// at most once per `interval`. A pure value: the caller supplies the time and sends what it is given.
public struct ShowEventPacer: Sendable, Equatable {
    public var interval: Double
    /// When the next frame may go.
    public var nextDue: Double
    /// The newest frame and scene this viewer was given (0: none yet).
    public var lastFrameSequence: UInt64 = 0
    public var lastSceneSequence: UInt64 = 0
    /// The board's number of the newest frame given (0: none yet).
    public var lastFrameNumber: UInt64 = 0
    /// Frames dropped since `takeDropped()`.
    public private(set) var droppedFrames: UInt64 = 0

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
        let due = takeEvents(latest, now: now)
        return [due.scene, due.frame].compactMap { $0?.line }
    }

    /// `take`'s events themselves, for a sender that encodes each event once for all its viewers.
    public mutating func takeEvents(
        _ latest: ShowEventBoard.Latest, now: Double
    ) -> (scene: ShowEventBoard.Event?, frame: ShowEventBoard.Event?) {
        var due: (scene: ShowEventBoard.Event?, frame: ShowEventBoard.Event?) = (nil, nil)
        if let scene = latest.scene, scene.sequence > lastSceneSequence {
            due.scene = scene
            lastSceneSequence = scene.sequence
        }
        if let frame = latest.frame, frame.sequence > lastFrameSequence, now >= nextDue {
            countDropped(before: frame, now: now)
            due.frame = frame
            lastFrameSequence = frame.sequence
            lastFrameNumber = frame.frameNumber
            nextDue += interval
            // Behind by more than a frame (a pause in the stream): restart the schedule from now.
            if nextDue < now { nextDue = now }
        }
        return due
    }

    /// Frames dropped since the last call: frames this viewer's rate had room for but it didn't get, because it
    /// was still taking an earlier one (a slow reader, a full socket). Frames left out to keep to the rate are not
    /// dropped. For a metric: the caller adds them to its total.
    public mutating func takeDropped() -> UInt64 {
        defer { droppedFrames = 0 }
        return droppedFrames
    }

    /// Before `frame` goes out: of the frames posted since the last one given, those that fell in a turn this
    /// viewer missed (each `interval` it was overdue) were dropped.
    private mutating func countDropped(before frame: ShowEventBoard.Event, now: Double) {
        guard lastFrameNumber > 0, frame.frameNumber > lastFrameNumber + 1 else { return }
        let skipped = frame.frameNumber - lastFrameNumber - 1
        let missedTurns = UInt64(max(0, Int64(saturating: ((now - nextDue) / interval).rounded(.down))))
        droppedFrames &+= min(skipped, missedTurns)
    }

    /// Seconds until something is due (0: at once), or nil when nothing waits and only a new event will change that.
    public func wait(for latest: ShowEventBoard.Latest, now: Double) -> Double? {
        if let scene = latest.scene, scene.sequence > lastSceneSequence { return 0 }
        if let frame = latest.frame, frame.sequence > lastFrameSequence { return max(0, nextDue - now) }
        return nil
    }
}
