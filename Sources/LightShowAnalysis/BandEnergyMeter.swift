import LightShowCore

/// Spectrum → band energies: keeps a decimated copy of the audio for the long window, Hann-windows the newest audio
/// at each length of a `WindowPlan`, runs the FFTs, and sums each band's bins (edge bins weighted) into a mean
/// square, so a sine of peak A gives A²/2 whatever the window. The full-rate audio is the caller's
/// (`LevelAnalyzer` keeps one copy for this and the onset detector). Owns its transforms; one owner thread.
final class BandEnergyMeter {
    let plan: WindowPlan
    let sampleRate: Int
    /// How many of the newest full-rate samples `measure` reads.
    let fullRateSpan: Int
    private var decimated: SampleHistory
    private var decimator = Decimator()
    private var decimatedChunk: [Float] = []
    let transforms: [RealFFT]
    let windows: [HannWindow]
    /// Runs every transform, used by a band or not: the spectrum summary reads them all.
    var runsEveryTransform = false
    /// Per transform: factor turning Σ weight·|X|² into a mean square.
    private let scales: [Double]
    /// Per band (in `Band.allCases` order), per transform: the bins it covers.
    private var bandBins: [[BinWeights]] = []
    /// Whether any band uses each transform this hop (skip the FFT otherwise).
    private var transformInUse: [Bool] = []
    /// Per band, from the last `measure`: the share of its energy from the long window (the first transform).
    private(set) var longShares: [Double] = []

    init(plan: WindowPlan, sampleRate: Int, bands: BandsSettings) {
        self.plan = plan
        self.sampleRate = sampleRate
        transforms = plan.transformSizes.map(RealFFT.init(size:))
        windows = plan.transformSizes.map(HannWindow.init(size:))
        let sizes = zip(plan.transformSizes, plan.decimations)
        fullRateSpan = sizes.filter { $0.1 == 1 }.map(\.0).max() ?? 1
        decimated = SampleHistory(capacity: sizes.filter { $0.1 != 1 }.map(\.0).max() ?? 1)
        // One-sided |X|² counts each positive frequency once; ×2 (folded into the bin weights) restores the
        // negative half, and N·Σw² undoes the window and transform gains (Parseval).
        scales = zip(plan.transformSizes, windows).map { size, window in 1 / (Double(size) * window.sumOfSquares) }
        setBands(bands)
    }

    /// Takes the next mono samples into the decimated copy.
    func append(_ samples: UnsafeBufferPointer<Float>) {
        guard plan.longDecimation != 1 else { return }
        decimator.process(samples, into: &decimatedChunk)
        decimatedChunk.withUnsafeBufferPointer { decimated.append($0) }
    }

    func setBands(_ bands: BandsSettings) {
        bandBins = Band.allCases.map { band in
            let range = bands[band].range
            return zip(transforms.indices, plan.split(lower: range.lower, upper: range.upper)).map { index, part in
                let fft = transforms[index]
                // A decimated transform has fewer points over the same span: the bin width is rate / span either way.
                let span = plan.sizes[index]
                let weights = BinWeights(
                    lower: part.lower, upper: part.upper,
                    binWidth: Double(sampleRate) / Double(span), binCount: fft.binCount
                )
                return Self.foldOneSidedFactor(weights, binCount: fft.binCount)
            }
        }
        transformInUse = transforms.indices.map { index in bandBins.contains { !$0[index].isEmpty } }
    }

    /// Mean square of each band over the newest samples, `fullRate` holding at least `fullRateSpan` of them.
    func measure(fullRate: SampleHistory, into energies: inout [Double]) {
        for (index, fft) in transforms.enumerated() where transformInUse[index] || runsEveryTransform {
            let history = plan.decimations[index] == 1 ? fullRate : decimated
            windows[index].coefficients.withUnsafeBufferPointer { window in
                history.withNewest(fft.size) { samples in
                    let input = fft.input
                    for n in 0..<fft.size { input[n] = samples[n] * window[n] }
                }
            }
            fft.execute()
        }
        energies.removeAll(keepingCapacity: true)
        longShares.removeAll(keepingCapacity: true)
        for bins in bandBins {
            var total = 0.0
            var long = 0.0
            for (index, fft) in transforms.enumerated() where !bins[index].isEmpty {
                let part = Double(Self.weightedPower(fft, bins[index])) * scales[index]
                total += part
                if index == 0 { long = part }
            }
            energies.append(total)
            // An empty band is timed as its long part would be, if it has one.
            longShares.append(total > 0 ? long / total : bins[0].isEmpty ? 0 : 1)
        }
    }

    static func weightedPower(_ fft: RealFFT, _ bins: BinWeights) -> Float {
        bins.weights.withUnsafeBufferPointer { weights in
            var sum: Float = 0
            let first = bins.firstBin
            for offset in 0..<weights.count { sum += weights[offset] * fft.power(first + offset) }
            return sum
        }
    }

    /// Doubles every bin's weight except DC and Nyquist, which have no mirrored negative twin.
    private static func foldOneSidedFactor(_ bins: BinWeights, binCount: Int) -> BinWeights {
        BinWeights(firstBin: bins.firstBin, weights: bins.weights.enumerated().map { offset, weight in
            let bin = bins.firstBin + offset
            return bin == 0 || bin == binCount - 1 ? weight : weight * 2
        })
    }
}
