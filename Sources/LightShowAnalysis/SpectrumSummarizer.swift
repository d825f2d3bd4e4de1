import LightShowCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The band meter's spectrum, summarized for WLED audio sync: 16 channels at WLED's edges and the strongest peak,
/// under a gain of their own so that quiet music still fills the bars. It reads the transforms the meter has
/// just run (the long one below the split, the short one above, as the bands do), so a hop costs a few hundred
/// bin sums and no FFT of its own. One owner thread.
final class SpectrumSummarizer {
    let settings: AnalysisSettings
    /// Per channel, per transform: the bins it covers.
    private let channelBins: [[BinWeights]]
    /// Per transform: Σ weight·|X|² → mean square (the one-sided ×2 and Parseval's N·Σw² folded in).
    private let powerScales: [Float]
    /// Per transform: |X|² → squared sine amplitude, (2/Σw)², so peaks in either transform compare.
    private let amplitudeScales: [Float]
    /// Per transform: the bins the peak search reads (each with a neighbour on both sides), nil for none.
    private let peakBins: [ClosedRange<Int>?]
    private let binWidths: [Double]
    /// Per channel: its width in octaves, in dB, taken off its level so that pink noise (equal energy per octave,
    /// roughly what music is) reads alike in every channel however wide.
    private let widthDB: [Double]
    /// One ceiling for all channels: the bars keep their relative heights.
    private var gain: AutomaticGain
    private let mapping: AlphaMapping
    private var channelDB = [Double](repeating: 0, count: SpectrumSummary.channelCount)
    private var lastTime: Double?
    private var lastBassOnset: Double?

    init(meter: BandEnergyMeter, settings: AnalysisSettings) {
        self.settings = settings
        let plan = meter.plan
        let transforms = meter.transforms
        binWidths = transforms.indices.map { Double(meter.sampleRate) / Double(plan.sizes[$0]) }
        powerScales = zip(transforms, meter.windows).map { fft, window in Float(2 / (Double(fft.size) * window.sumOfSquares)) }
        amplitudeScales = meter.windows.map { window in
            let sum = window.coefficients.reduce(0, +)
            return sum > 0 ? 4 / (sum * sum) : 0
        }
        let edges = SpectrumSummary.channelEdges
        channelBins = (0..<SpectrumSummary.channelCount).map { [binWidths] channel in
            zip(transforms.indices, plan.split(lower: edges[channel], upper: edges[channel + 1])).map { index, part in
                BinWeights(lower: part.lower, upper: part.upper, binWidth: binWidths[index], binCount: transforms[index].binCount)
            }
        }
        let outer = plan.split(lower: edges[0], upper: edges[SpectrumSummary.channelCount])
        peakBins = zip(transforms.indices, outer).map { [binWidths] index, part in
            let first = max(1, Int((part.lower / binWidths[index]).rounded(.up)))
            let last = min(transforms[index].binCount - 2, Int((part.upper / binWidths[index]).rounded(.down)))
            return part.upper > part.lower && first <= last ? first...last : nil
        }
        widthDB = (0..<SpectrumSummary.channelCount).map { 10 * log10(log2(edges[$0 + 1] / edges[$0])) }
        gain = AutomaticGain(
            bandCount: 1, recoveryDBPerSecond: settings.gainRecoveryDBPerSecond, maximumGainDB: settings.maximumGainDB,
            bandSpreadDB: 0
        )
        mapping = AlphaMapping(dynamicRangeDB: settings.dynamicRangeDB)
    }

    /// The summary of the hop `frame` came from; call right after the meter measured it.
    func summarize(_ meter: BandEnergyMeter, frame: AnalysisFrame) -> SpectrumSummary {
        if let onset = frame.onsets.last(where: { $0.band == .bass }) { lastBassOnset = onset.time }
        let dt = lastTime.map { min(1, max(0, frame.time - $0)) } ?? 0
        lastTime = frame.time
        // The gate closed: dark bars, and the ceiling holds, as the bands' does.
        guard frame.hasSound else { return SpectrumSummary(lastBassOnset: lastBassOnset) }
        let transforms = meter.transforms
        var loudest = Decibels.floor
        for channel in channelDB.indices {
            var meanSquare = 0.0
            for (index, bins) in channelBins[channel].enumerated() where !bins.isEmpty {
                meanSquare += Double(BandEnergyMeter.weightedPower(transforms[index], bins) * powerScales[index])
            }
            channelDB[channel] = Decibels.bandLevel(meanSquare: meanSquare) - widthDB[channel]
            loudest = max(loudest, channelDB[channel])
        }
        gain.update(levelsDB: [loudest], dt: dt)
        let ceiling = gain.ceilings[0]
        var summary = SpectrumSummary(lastBassOnset: lastBassOnset)
        for channel in channelDB.indices {
            summary.channels[channel] = Float(mapping.alpha(levelDB: channelDB[channel], ceilingDB: ceiling))
        }
        if let (frequency, amplitudeSquared) = strongestPeak(transforms), let channel = SpectrumSummary.channel(of: frequency) {
            summary.peakFrequency = Float(frequency)
            let level = Decibels.fromPower(Double(amplitudeSquared)) - widthDB[channel]
            summary.peakLevel = Float(mapping.alpha(levelDB: level, ceilingDB: ceiling))
        }
        return summary
    }

    /// The loudest bin between the outer edges, its frequency refined between its neighbours (a parabola through
    /// the logarithms of the three powers: within a few hundredths of a bin for a Hann window), and its squared
    /// amplitude. Nil in digital silence.
    private func strongestPeak(_ transforms: [RealFFT]) -> (frequency: Double, amplitudeSquared: Float)? {
        var best: (index: Int, bin: Int, amplitudeSquared: Float)?
        for (index, range) in peakBins.enumerated() {
            guard let range else { continue }
            let fft = transforms[index]
            for bin in range {
                let amplitudeSquared = fft.power(bin) * amplitudeScales[index]
                if amplitudeSquared > (best?.amplitudeSquared ?? 0) { best = (index, bin, amplitudeSquared) }
            }
        }
        guard let best else { return nil }
        let fft = transforms[best.index]
        let (left, centre, right) = (fft.power(best.bin - 1), fft.power(best.bin), fft.power(best.bin + 1))
        var offset = 0.0
        if left > 0, right > 0 {
            let (a, b, c) = (Double(log(left)), Double(log(centre)), Double(log(right)))
            let curvature = a - 2 * b + c
            if curvature < 0 { offset = min(0.5, max(-0.5, 0.5 * (a - c) / curvature)) }
        }
        return ((Double(best.bin) + offset) * binWidths[best.index], best.amplitudeSquared)
    }
}
