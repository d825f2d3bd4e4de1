/// What a WLED audio sync packet carries beyond the band levels: a 16-channel graphic equalizer at WLED's own
/// channel edges and the strongest spectral peak, both after the summary's own gain, and when the newest bass
/// onset was. Measured only while an output needs it.
public struct SpectrumSummary: Sendable, Equatable {
    public static let channelCount = 16
    /// WLED's GEQ channel edges in Hz: channel `i` spans `channelEdges[i]…channelEdges[i + 1]`.
    public static let channelEdges: [Double] = [
        43, 86, 129, 216, 301, 430, 560, 818, 1120, 1421, 1895, 2412, 3015, 3704, 4479, 7106, 9259,
    ]

    /// Each channel's level, 0…1.
    public var channels: SIMD16<Float>
    /// Frequency of the strongest peak between the outer edges, Hz; 0 when there is none (silence).
    public var peakFrequency: Float
    /// The strongest peak's level on the channels' scale, 0…1.
    public var peakLevel: Float
    /// Audio time (seconds) of the newest bass onset so far, nil before the first: a reader that skips frames
    /// still sees that one happened.
    public var lastBassOnset: Double?

    public init(channels: SIMD16<Float> = .zero, peakFrequency: Float = 0, peakLevel: Float = 0, lastBassOnset: Double? = nil) {
        self.channels = channels
        self.peakFrequency = peakFrequency
        self.peakLevel = peakLevel
        self.lastBassOnset = lastBassOnset
    }

    /// The geometric centre of `channel` in Hz.
    public static func centre(of channel: Int) -> Double {
        let index = min(channelCount - 1, max(0, channel))
        return (channelEdges[index] * channelEdges[index + 1]).squareRoot()
    }

    /// The channel holding `frequency`, nil outside the outer edges.
    public static func channel(of frequency: Double) -> Int? {
        guard frequency >= channelEdges[0], frequency <= channelEdges[channelCount] else { return nil }
        return (1...channelCount).first { frequency < channelEdges[$0] }.map { $0 - 1 } ?? channelCount - 1
    }

    /// Every level multiplied by `factor` (dimming); the peak's frequency and the onset stay.
    public func scaled(by factor: Float) -> SpectrumSummary {
        SpectrumSummary(channels: channels * factor, peakFrequency: peakFrequency, peakLevel: peakLevel * factor, lastBassOnset: lastBassOnset)
    }
}
