/// Turns analysis results into output frames at exactly `framesPerSecond`: frame i stands at t = i/fps and shows
/// the newest analysis at or before t. A frame is released once the audio has passed its time, so N seconds of
/// audio give exactly N·fps frames, numbered without gaps, whatever the block sizes were.
public struct FrameTimeline: Sendable {
    public let framesPerSecond: Double
    /// Index of the next frame to release.
    public private(set) var nextIndex = 0
    private var analyses: [AnalysisFrame] = []
    private var current = BandLevels.zero

    public init(framesPerSecond: Double) {
        self.framesPerSecond = framesPerSecond
    }

    /// Time of frame `index`, seconds.
    public func time(of index: Int) -> Double { Double(index) / framesPerSecond }

    /// Adds analysis results (in time order).
    public mutating func add(_ frames: [AnalysisFrame]) {
        analyses.append(contentsOf: frames)
    }

    /// Every frame whose time lies before `audioTime` (seconds of audio consumed so far).
    public mutating func release(upTo audioTime: Double, state: PlaybackState, title: String) -> [ShowFrame] {
        var released: [ShowFrame] = []
        // The small tolerance keeps exact multiples (60 s at 30 fps) from gaining or losing a frame to rounding.
        while Double(nextIndex) < audioTime * framesPerSecond - 1e-6 {
            let t = time(of: nextIndex)
            var used = 0
            for analysis in analyses {
                guard analysis.time <= t + 1e-9 else { break }
                current = analysis.levels
                used += 1
            }
            analyses.removeFirst(used)
            released.append(ShowFrame(index: nextIndex, time: t, levels: current, state: state, title: title, elapsed: t))
            nextIndex += 1
        }
        return released
    }
}
