import Synchronization

/// What the engines of a long run count, kept across them (a daemon builds a new engine each time its input opens
/// again): frames emitted, analysis time per hop, and the latency from the audio to its frame. Recorded on the
/// audio path with relaxed atomics; read by a metrics scrape.
public final class EngineMetrics: Sendable {
    private let frames = Atomic<UInt64>(0)
    /// The analyser's time for one hop: its share of the `process` calls that completed it.
    public let analysisHop = DurationHistogram(upperBounds: [
        0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025,
    ])
    /// From the capture of the newest sample a frame analysed to the moment the engine hands the frame to its
    /// sinks: the hop's wait for the reader, the analysis and the engine's turn. Frames made without analysis
    /// (a key press, a fade) have no audio and are not counted.
    public let audioToFrame = DurationHistogram(upperBounds: [
        0.001, 0.002_5, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.1, 0.25, 0.5, 1,
    ])

    public init() {}

    /// Frames the engines handed to their sinks.
    public var framesEmitted: UInt64 { frames.load(ordering: .relaxed) }

    /// One frame handed to the sinks at `now`, made from audio captured at `capturedAt` (nil: not from audio).
    func frameEmitted(capturedAt: UInt64?, now: UInt64) {
        frames.wrappingAdd(1, ordering: .relaxed)
        guard let capturedAt, now >= capturedAt else { return }
        audioToFrame.record(nanoseconds: now - capturedAt)
    }
}
