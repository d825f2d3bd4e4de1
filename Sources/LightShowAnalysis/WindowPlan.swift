/// Which FFT length analyses which part of the frequency axis.
///
/// Telling a 200 Hz bass note from the 250 Hz mid edge takes a long window (~90 ms), but a long window
/// also delays every onset by a good part of its length. So the axis is split: below `splitFrequency`
/// (bass and the bottom of the mid) a long window gives resolution; above it a short one (~20 ms) gives speed.
/// The split sits a dozen short-window bins up, where a Hann window's leakage from a bass note is below −70 dB.
///
/// Measured at 44.1 kHz with the default bands: a 2048-point long window lets a steady 200 Hz tone light the mid
/// at 0.33, 4096 points at 0.00. A burst after silence reaches half its level 17 ms after onset at 60 Hz and
/// 10 ms at 1 and 8 kHz; a burst repeated every 0.5 s (an established gain) 35 ms at 60 Hz and 15 ms at 1 and 8 kHz.
/// A shorter mid/treble window (512) measured no faster: the dB scale and the 12 ms attack dominate there.
public struct WindowPlan: Equatable, Sendable {
    /// FFT length for frequencies below `splitFrequency`.
    public let longSize: Int
    /// FFT length for frequencies at and above `splitFrequency`.
    public let shortSize: Int
    public let splitFrequency: Double
    /// The long window runs on audio decimated by this factor (1 or `Decimator.factor`): it only uses bins below
    /// `splitFrequency`, so a 4× shorter transform over the same span gives the same bins for a quarter of the work.
    public let longDecimation: Int

    public init(longSize: Int, shortSize: Int, splitFrequency: Double, longDecimation: Int = 1) {
        self.longSize = longSize
        self.shortSize = shortSize
        self.splitFrequency = splitFrequency
        self.longDecimation = longDecimation == Decimator.factor ? longDecimation : 1
    }

    /// The plan for a sample rate: long ≈ 85 ms, short ≈ 20 ms, rounded up to powers of two
    /// (4096 and 1024 at 44.1 and 48 kHz).
    public init(sampleRate: Int) {
        let long = Self.powerOfTwo(atLeast: Double(sampleRate) * 0.085)
        let short = Self.powerOfTwo(atLeast: Double(sampleRate) * 0.020)
        let split = 12 * Double(sampleRate) / Double(short)
        // Decimate when the reduced rate still leaves the split far below its Nyquist frequency (rates ≥ 32 kHz).
        let decimate = Double(sampleRate) / Double(2 * Decimator.factor) >= 7 * split
        self.init(longSize: long, shortSize: short, splitFrequency: split, longDecimation: decimate ? Decimator.factor : 1)
    }

    /// Span of each window in input samples, in the order the analyzer keeps its transforms.
    public var sizes: [Int] { [longSize, shortSize] }

    /// Decimation of each transform's input, same order.
    public var decimations: [Int] { [longDecimation, 1] }

    /// Points of each transform, same order.
    public var transformSizes: [Int] { zip(sizes, decimations).map { $0 / $1 } }

    /// The part of `lower…upper` each transform covers, in the order of `sizes`.
    public func split(lower: Double, upper: Double) -> [(lower: Double, upper: Double)] {
        [(lower, min(upper, splitFrequency)), (max(lower, splitFrequency), upper)]
    }

    static func powerOfTwo(atLeast value: Double) -> Int {
        var size = 256
        while Double(size) < value && size < 1 << 16 { size <<= 1 }
        return size
    }
}
