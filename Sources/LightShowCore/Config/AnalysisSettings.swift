/// `[analysis]`: how band energy becomes light.
public struct AnalysisSettings: Equatable, Sendable {
    /// Envelope rise time constant, milliseconds.
    public var attackMilliseconds: Double = 12
    /// Envelope fall time constant, milliseconds.
    public var releaseMilliseconds: Double = 180
    /// RMS below this (dBFS) counts as silence.
    public var silenceThresholdDBFS: Double = -60
    /// How long the signal must stay below the threshold before the gate closes, milliseconds.
    public var silenceHoldMilliseconds: Double = 250
    /// Dynamic range mapped onto 0…1 below the adaptive ceiling, dB.
    public var dynamicRangeDB: Double = 40
    /// How fast the adaptive ceiling falls back after a loud passage, dB per second.
    public var gainRecoveryDBPerSecond: Double = 3
    /// Bounds on the adaptive gain, dB of boost a quiet song may get at most.
    public var maximumGainDB: Double = 30
    /// Live analysis rate (hops per second); offline analysis hops once per output frame.
    public var analysisRate: Double = 200

    public init() {}
}
