/// One analysis step's result: the band levels at a point on the audio timeline.
public struct AnalysisFrame: Sendable, Equatable {
    /// Audio time in seconds from the start of the input (end of the analysed window).
    public var time: Double
    /// Brightness per band, 0…1: the larger of `envelope` and `accent`. What every output shows.
    public var levels: BandLevels
    /// Each band's envelope alone (gain, envelope and gate applied; with accents on, below full by their
    /// headroom), 0…1.
    public var envelope: BandLevels
    /// Each band's accent alone (onsets' lifts, falling), 0…1; zero with accents off.
    public var accent: BandLevels
    /// The onsets decided since the previous frame, in time order.
    public var onsets: [Onset]
    /// False while the silence gate is closed.
    public var hasSound: Bool
    /// Broadband RMS of the newest hop, dBFS.
    public var rmsDBFS: Float
    /// Monotonic capture time of the newest sample analysed (live inputs only), for latency accounting.
    public var captureTimeNanoseconds: UInt64?
    /// The 16-channel spectrum and its peak, when an output asked the analysis for them.
    public var spectrum: SpectrumSummary?

    /// - Parameter envelope: defaults to `levels` (a frame without accents).
    public init(
        time: Double, levels: BandLevels, envelope: BandLevels? = nil, accent: BandLevels = .zero, onsets: [Onset] = [],
        hasSound: Bool, rmsDBFS: Float, captureTimeNanoseconds: UInt64? = nil
    ) {
        self.time = time
        self.levels = levels
        self.envelope = envelope ?? levels
        self.accent = accent
        self.onsets = onsets
        self.hasSound = hasSound
        self.rmsDBFS = rmsDBFS
        self.captureTimeNanoseconds = captureTimeNanoseconds
    }
}
