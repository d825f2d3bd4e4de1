/// One analysis step's result: the band levels at a point on the audio timeline.
public struct AnalysisFrame: Sendable, Equatable {
    /// Audio time in seconds from the start of the input (end of the analysed window).
    public var time: Double
    /// Brightness per band after gain, envelope and gate, 0…1.
    public var levels: BandLevels
    /// False while the silence gate is closed.
    public var hasSound: Bool
    /// Broadband RMS of the newest hop, dBFS.
    public var rmsDBFS: Float
    /// Monotonic capture time of the newest sample analysed (live inputs only), for latency accounting.
    public var captureTimeNanoseconds: UInt64?

    public init(time: Double, levels: BandLevels, hasSound: Bool, rmsDBFS: Float, captureTimeNanoseconds: UInt64? = nil) {
        self.time = time
        self.levels = levels
        self.hasSound = hasSound
        self.rmsDBFS = rmsDBFS
        self.captureTimeNanoseconds = captureTimeNanoseconds
    }
}
