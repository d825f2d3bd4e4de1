public import LightShowCore

/// Turns the engine's frames into output frames at exactly `framesPerSecond`: output frame i stands at
/// t = i/fps and shows the newest show frame at or before t (its levels, state and title). Frames are released
/// once the audio has passed their time, so N seconds of audio give exactly N·fps frames, numbered without gaps,
/// whatever the block sizes and the analysis rate were.
public struct FrameTimeline: Sendable {
    public let framesPerSecond: Double
    /// Index of the next frame to release.
    public private(set) var nextIndex = 0
    private var pending: [ShowFrame] = []
    private var current: ShowFrame?

    public init(framesPerSecond: Double) {
        self.framesPerSecond = framesPerSecond
    }

    /// Time of output frame `index`, seconds.
    public func time(of index: Int) -> Double { Double(index) / framesPerSecond }

    /// Time of the newest frame added, if any.
    public var latestTime: Double? { pending.last?.time ?? current?.time }

    /// Adds the engine's next frame (in time order).
    public mutating func add(_ frame: ShowFrame) {
        pending.append(frame)
    }

    /// Every output frame whose time lies before `time` (seconds of audio consumed so far).
    public mutating func release(before time: Double) -> [ShowFrame] {
        var released: [ShowFrame] = []
        // The small tolerance keeps exact multiples (60 s at 30 fps) from gaining or losing a frame to rounding.
        while Double(nextIndex) < time * framesPerSecond - 1e-6 {
            released.append(next())
        }
        dropConsumed()
        return released
    }

    /// Output frames up to and including the first whose time reaches the newest frame added, so the last one
    /// released shows it (a recording's dark last frame).
    public mutating func releaseThroughLatest() -> [ShowFrame] {
        guard let latest = latestTime else { return [] }
        var released: [ShowFrame] = []
        while Double(nextIndex) < latest * framesPerSecond + 1 - 1e-6 {
            released.append(next())
        }
        dropConsumed()
        return released
    }

    /// Frames of `pending` already taken into `current`.
    private var consumed = 0

    private mutating func dropConsumed() {
        pending.removeFirst(consumed)
        consumed = 0
    }

    private mutating func next() -> ShowFrame {
        let t = time(of: nextIndex)
        while consumed < pending.count, pending[consumed].time <= t + 1e-9 {
            current = pending[consumed]
            consumed += 1
        }
        // Before the first analysis the lights are dark, in the state the show began with.
        var frame = current ?? pending.first.map { first in
            ShowFrame(index: 0, time: t, levels: .zero, state: first.state, title: first.title, elapsed: first.elapsed.map { _ in t })
        } ?? ShowFrame(index: 0, time: t, levels: .zero, state: .stopped, title: "")
        // A playing song moves on between two show frames; otherwise the position stands.
        if let elapsed = frame.elapsed, frame.state == .playing, let shown = current {
            frame.elapsed = elapsed + max(0, t - shown.time)
        }
        frame.index = nextIndex
        frame.time = t
        nextIndex += 1
        return frame
    }
}
