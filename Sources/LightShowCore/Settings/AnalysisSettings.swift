/// `[analysis]`: how band energy becomes light.
/// Level chain per band: energy → dB → adaptive ceiling (automatic gain) → alpha over `dynamicRangeDB` → envelope,
/// with the silence gate forcing the target to 0.
public struct AnalysisSettings: Equatable, Sendable {
    /// Envelope rise time constant, milliseconds.
    public var attackMilliseconds: Double = 12
    /// Envelope fall time constant, milliseconds.
    public var releaseMilliseconds: Double = 180
    /// Broadband RMS below this (dBFS) counts as silence; dither and hiss stay below it.
    public var silenceThresholdDBFS: Double = -60
    /// How long the signal must stay below the threshold before the gate closes, milliseconds.
    public var silenceHoldMilliseconds: Double = 250
    /// Dynamic range mapped onto 0…1 below the adaptive ceiling, dB.
    public var dynamicRangeDB: Double = 30
    /// How fast the adaptive ceiling falls back after a loud passage, dB per second (slow, so music doesn't pump).
    public var gainRecoveryDBPerSecond: Double = 3
    /// Bound on the adaptive gain: the most boost (dB) a quiet song may get over a full-scale one.
    public var maximumGainDB: Double = 30
    /// Bound across bands: a band's ceiling stays within this many dB of the loudest band's ceiling,
    /// so window leakage and hiss in an otherwise empty band never light it.
    public var bandSpreadDB: Double = 18

    public init() {}
}
