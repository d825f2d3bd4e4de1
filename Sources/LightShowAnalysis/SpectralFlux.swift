import LightShowCore

/// One window length of `OnsetDetector`'s onset function, SuperFlux (Böck & Widmer 2013) on the bands given to it.
///
/// Each hop: a Hann window over the newest `size` samples, its power spectrum in dB; the value of a band is the
/// mean over its bins of how far each bin rose above the highest of its neighbours (±1 bin) over the last
/// `pastHops` hops. The neighbour maximum lets vibrato glide between bins without counting as a rise; the maximum
/// over past hops keeps a low note's ripple in a short window from counting. The dB scale makes the function the
/// same for a quiet song and a loud one. Only the bins of its bands are converted and compared, and a transform
/// with no band does nothing.
final class SpectralFlux {
    /// The lowest floor a band may have, and where bins start.
    static let lowestFloorPower: Float = 1e-9

    /// The window's length, and its bins' spacing in the transform it shares (1, or 2 when zero-padded to twice).
    let size: Int
    private let spacing: Int
    let pastHops: Int
    private let fft: PackedRealFFT
    /// Bins of the window's own spectrum, `size/2 + 1`.
    private let binCount: Int
    /// The Hann window's first half, `size/2 + 1` coefficients: the window is symmetric (w[n] = w[size − n], to the
    /// bit in `Float` at every power-of-two size), and live, the half is that much less to fetch from cold memory.
    private let halfWindow: UnsafeMutablePointer<Float>
    private let powerScale: Float
    /// Per bin: the power added before the dB (relative to a full-scale sine), so silent bins don't swing by many
    /// dB: the λ of SuperFlux's log(1 + λ·|X|), in effect. Each band sets its own bins'.
    private let floors: UnsafeMutablePointer<Float>
    /// Per band (in `Band.allCases` order): the first bin it covers and the one past its last, equal when another
    /// transform measures it.
    private let bandLower: UnsafeMutablePointer<Int>
    private let bandUpper: UnsafeMutablePointer<Int>
    /// The bins' spacing in Hz, from the last `setBands`.
    private var binWidth: Float = 1
    /// The bins any of its bands covers, plus one each side for the neighbour maximum.
    private var binSpan: Range<Int> = 0..<0
    /// This hop's spectrum in dB (over `binSpan`; its powers first, converted in place), and each bin's rise over its
    /// past. Pointers into one allocation the instance owns, not arrays: this runs some 375 times a second, and each
    /// array's exclusivity checks and checked indexing cost more than the arithmetic. Live, each wake-up finds
    /// them cold: fewer places to fetch from, fewer misses.
    private let levels: UnsafeMutablePointer<Float>
    private let rises: UnsafeMutablePointer<Float>
    /// The last `pastHops` hops' neighbour-maximum spectra, a ring of `pastHops` rows of `binCount`.
    private let past: UnsafeMutablePointer<Float>
    private var pastRow = 0

    /// A window of `size` samples measured with `fft`, which is `size` or twice that long (zero-padded) and may be
    /// shared with another `SpectralFlux`: each measure fills its input anew.
    init(size: Int, pastHops: Int, fft: PackedRealFFT) {
        precondition(fft.size == size || fft.size == 2 * size, "a window is transformed at its length or twice it")
        precondition(size >= 16 && size.nonzeroBitCount == 1, "a window of a power of two of at least 16")
        self.size = size
        spacing = fft.size / size
        binCount = size / 2 + 1
        self.pastHops = max(1, pastHops)
        self.fft = fft
        let hann = HannWindow(size: size)
        // As `BandEnergyMeter`: a sine of peak A gives A²/2 in its bin.
        powerScale = Float(2 / (Double(size) * hann.sumOfSquares))
        let floorDB = FastDecibels.of(Self.lowestFloorPower)
        let bins = binCount
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: (4 + self.pastHops) * bins)
        (floors, levels, rises, past) = (storage, storage + bins, storage + 2 * bins, storage + 3 * bins)
        let halfWindow = past + self.pastHops * bins
        hann.coefficients.withUnsafeBufferPointer { halfWindow.initialize(from: $0.baseAddress!, count: bins) }
        self.halfWindow = halfWindow
        floors.initialize(repeating: Self.lowestFloorPower, count: bins)
        levels.initialize(repeating: floorDB, count: bins)
        rises.initialize(repeating: 0, count: bins)
        past.initialize(repeating: floorDB, count: self.pastHops * bins)
        bandLower = .allocate(capacity: 2 * Band.allCases.count)
        bandUpper = bandLower + Band.allCases.count
        bandLower.initialize(repeating: 0, count: 2 * Band.allCases.count)
    }

    deinit {
        floors.deallocate()
        bandLower.deallocate()
    }

    /// The bands this transform measures, in `Band.allCases` order: each one's range and dB floor (power), nil
    /// for the others. `sampleRate` is that of the samples it is given.
    func setBands(_ bands: [(range: FrequencyRange, floorPower: Float)?], sampleRate: Double) {
        let binWidth = sampleRate / Double(size)
        self.binWidth = Float(binWidth)
        let last = binCount - 1
        let bandBins = bands.map { band in
            band.map { band in
                let lower = min(last, max(1, Int((band.range.lower / binWidth).rounded(.up))))
                let upper = min(binCount, max(lower + 1, Int((band.range.upper / binWidth).rounded(.up))))
                return lower..<upper
            }
        }
        for (index, range) in bandBins.enumerated() where index < Band.allCases.count {
            (bandLower[index], bandUpper[index]) = (range?.lowerBound ?? 0, range?.upperBound ?? 0)
        }
        let used = bandBins.compactMap(\.self)
        guard let lowest = used.map(\.lowerBound).min(), let highest = used.map(\.upperBound).max() else {
            binSpan = 0..<0
            return
        }
        binSpan = max(0, lowest - 1)..<min(binCount, highest + 1)
        // Each band's bins get its floor, the span's edge bins their neighbour's; no past level lies below a floor.
        for (range, band) in zip(bandBins, bands) {
            guard let range, let band else { continue }
            for bin in range { floors[bin] = band.floorPower }
        }
        floors[binSpan.lowerBound] = floors[min(binSpan.lowerBound + 1, binSpan.upperBound - 1)]
        floors[binSpan.upperBound - 1] = floors[max(binSpan.upperBound - 2, binSpan.lowerBound)]
        let bins = binCount
        for bin in binSpan {
            let floorDB = FastDecibels.of(floors[bin])
            for row in 0..<pastHops { past[row * bins + bin] = max(past[row * bins + bin], floorDB) }
        }
    }

    /// Transforms the `size` samples that end just before `end` and writes the onset function of each of its bands
    /// into `values`, each one's mean square into `powers`, and each one's mean and highest bin as power per Hz into
    /// `densities` (two lanes a band: mean, highest; indexed as `Band.allCases`); the other bands' entries are left
    /// alone. Per Hz, bins of windows of different lengths compare.
    func measure(
        samplesEndingAt end: UnsafePointer<Float>, into values: UnsafeMutablePointer<Float>,
        powers: UnsafeMutablePointer<Float>, densities: UnsafeMutablePointer<Float>
    ) {
        guard !binSpan.isEmpty else { return }
        transform(end - size, powers: powers, densities: densities)
        let bins = binCount
        let span = binSpan
        Self.rises(level: levels, history: past, rows: pastHops, bins: bins, span: span, into: rises)
        // This hop's neighbour maximum replaces the oldest row.
        Self.neighbourMaximum(level: levels, bins: bins, span: span, into: past + pastRow * bins)
        for band in 0..<Band.allCases.count where bandLower[band] < bandUpper[band] {
            values[band] = Self.sum(rises, bandLower[band]..<bandUpper[band]) / Float(bandUpper[band] - bandLower[band])
        }
        pastRow = (pastRow + 1) % pastHops
    }

    /// Σ of `values` over `bins`, in eight partial sums: one running sum waits on each add in turn.
    private static func sum(_ values: UnsafePointer<Float>, _ bins: Range<Int>) -> Float {
        var lanes = SIMD8<Float>()
        var bin = bins.lowerBound
        while bin + 8 <= bins.upperBound {
            lanes += load(values + bin)
            bin += 8
        }
        var total = lanes.sum()
        while bin < bins.upperBound {
            total += values[bin]
            bin += 1
        }
        return total
    }

    /// The mean square under its lowest band (from bin 1) on the last `measure`: in the short window, what a lower
    /// band's start can splatter into its bands from (`SpillGuard`).
    private(set) var powerBelow: Float = 0

    /// Windows `samples` (`size` of them), transforms them, writes each band's mean square into `powers` (and its
    /// bins' densities, see `measure`) and fills
    /// `levels` (dB) over `binSpan`.
    private func transform(
        _ samples: UnsafePointer<Float>, powers: UnsafeMutablePointer<Float>, densities: UnsafeMutablePointer<Float>
    ) {
        let (input, half) = (fft.input, size / 2)
        for n in 0..<half { input[n] = samples[n] * halfWindow[n] }
        // The second half reads the table backwards, eight at a time (`size` is a power of two of at least 16).
        var n = half
        while n < size {
            let reversed = Self.load(halfWindow + (size - n - 7))
            let coefficients = SIMD8(
                reversed[7], reversed[6], reversed[5], reversed[4], reversed[3], reversed[2], reversed[1], reversed[0]
            )
            Self.store(Self.load(samples + n) * coefficients, input + n)
            n += 8
        }
        if spacing > 1 { (input + size).update(repeating: 0, count: fft.size - size) }
        fft.execute()
        let (scale, span) = (SIMD8<Float>(repeating: powerScale), binSpan)
        // The bins under the span are free in `levels`; the span's own powers overwrite its first bin below.
        let below = 1..<(span.lowerBound + 1)
        fft.power(bins: below, spacing: spacing, into: levels)
        powerBelow = below.count > 0 ? Self.sum(levels, below) * powerScale : 0
        // The powers land in `levels` and become dB in place.
        fft.power(bins: span, spacing: spacing, into: levels)
        let perHz = powerScale / binWidth
        for band in 0..<Band.allCases.count where bandLower[band] < bandUpper[band] {
            let bins = bandLower[band]..<bandUpper[band]
            powers[band] = Self.sum(levels, bins) * powerScale
            var highest: Float = 0
            for bin in bins { highest = max(highest, levels[bin]) }
            densities[2 * band] = powers[band] / Float(bins.count) / binWidth
            densities[2 * band + 1] = highest * perHz
        }
        guard span.count >= 8 else {
            for bin in span { levels[bin] = FastDecibels.of(levels[bin] * powerScale + floors[bin]) }
            return
        }
        let levels = levels, floors = floors
        func decibels(_ bin: Int) -> SIMD8<Float> {
            FastDecibels.of(Self.load(levels + bin) * scale + Self.load(floors + bin))
        }
        // In place: the last group, which may overlap the one before, is converted from the powers first.
        let lastBin = span.upperBound - 8
        let last = decibels(lastBin)
        span.eachGroupOfEight { bin in Self.store(bin == lastBin ? last : decibels(bin), levels + bin) }
    }

    /// Each bin's rise in dB over the highest of the past rows, eight bins at a time.
    private static func rises(
        level: UnsafePointer<Float>, history: UnsafePointer<Float>, rows: Int, bins: Int, span: Range<Int>,
        into rise: UnsafeMutablePointer<Float>
    ) {
        guard span.count >= 8 else {
            for bin in span {
                var reference = history[bin]
                for row in 1..<rows { reference = max(reference, history[row * bins + bin]) }
                rise[bin] = max(0, level[bin] - reference)
            }
            return
        }
        span.eachGroupOfEight { bin in
            var reference = load(history + bin)
            for row in 1..<rows { reference = larger(reference, load(history + row * bins + bin)) }
            store(larger(load(level + bin) - reference, .zero), rise + bin)
        }
    }

    /// The highest of each bin and its two neighbours (a bin at the edge has one).
    private static func neighbourMaximum(
        level: UnsafePointer<Float>, bins: Int, span: Range<Int>, into row: UnsafeMutablePointer<Float>
    ) {
        func scalar(_ bin: Int) {
            let left = bin > 0 ? level[bin - 1] : level[bin]
            let right = bin + 1 < bins ? level[bin + 1] : level[bin]
            row[bin] = max(level[bin], max(left, right))
        }
        var bin = span.lowerBound
        while bin < span.upperBound, bin == 0 { scalar(bin); bin += 1 }
        while bin + 8 <= span.upperBound, bin + 9 <= bins {
            store(larger(load(level + bin), larger(load(level + bin - 1), load(level + bin + 1))), row + bin)
            bin += 8
        }
        while bin < span.upperBound { scalar(bin); bin += 1 }
    }

    /// Lane by lane the larger, as a compare and a blend (the library's `pointwiseMax` goes lane by lane).
    @inline(__always)
    private static func larger(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        a.replacing(with: b, where: a .< b)
    }

    @inline(__always)
    private static func load(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always)
    private static func store(_ value: SIMD8<Float>, _ pointer: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: SIMD8<Float>.self)
    }
}
