/// The onset detector's long window at half the sample rate: the same span and bins from a transform half as long,
/// with half the samples to window, for bands that stay under an eighth of the rate.
///
/// Each pair of full-rate samples gives one output, its newer sample's, through a 7-tap binomial lowpass
/// (1 6 15 20 15 6 1 over 64) read straight from the full-rate history, so it keeps no state of its own but the
/// pair's phase. The gain is cos⁶(πf/rate): what folds onto bands under an eighth of the rate (from above 3/8 of
/// it) is ≥ 50 dB down, ≥ 65 dB onto the default mid's 4 kHz top at 44.1 kHz; the droop (4 dB at an eighth of the
/// rate, 2 dB at 4 kHz, 0.4 dB at 1.7 kHz) is constant in time, so a bin's rise in dB over its own past hardly
/// sees it. The taps delay the window by 3 full-rate samples (68 µs at 44.1 kHz).
final class HalvingFilter {
    /// Full-rate samples each output reaches back over, its own included.
    static let span = 7

    /// Whether the next full-rate sample is the newer of its pair.
    private var nextIsNewer = false
    private let output: UnsafeMutablePointer<Float>
    private let capacity: Int

    /// For pieces of at most `longestPiece` samples.
    init(longestPiece: Int) {
        capacity = longestPiece / 2 + 1
        output = .allocate(capacity: capacity)
    }

    deinit {
        output.deallocate()
    }

    /// Takes the `count` samples just appended to `full` (at most `longestPiece`), appends their outputs to `half`,
    /// and returns how many there were (what a second halving then takes).
    @discardableResult
    func follow(_ full: SampleHistory, appended count: Int, into half: inout SampleHistory) -> Int {
        guard count > 0 else { return 0 }
        var produced = 0
        var newerOnce = nextIsNewer
        let output = output
        full.withNewest(count + Self.span - 1) { samples in
            // The taps h0 h1 h2 h3 h2 h1 h0 as literals, not a static array: live, each wake-up fetched a lazily made
            // global's guard and buffer from cold memory before the first output.
            let (h0, h1, h2, h3): (Float, Float, Float, Float) = (1.0 / 64, 6.0 / 64, 15.0 / 64, 20.0 / 64)
            // Sample `index` of the piece is `samples[index + span − 1]`; its output reads the 7 ending there.
            var index = newerOnce ? 0 : 1
            // Eight outputs at a time, each lane the same sums in the same order as one at a time: the even lanes of
            // 16 samples read from each tap's offset are that tap's sample for 8 outputs two apart.
            let raw = UnsafeRawPointer(samples)
            while index + 16 <= count {
                func tap(_ offset: Int) -> SIMD8<Float> {
                    raw.loadUnaligned(fromByteOffset: 4 * (index + offset), as: SIMD16<Float>.self).evenHalf
                }
                let sum = h0 * (tap(0) + tap(6)) + h1 * (tap(1) + tap(5)) + h2 * (tap(2) + tap(4)) + h3 * tap(3)
                UnsafeMutableRawPointer(output + produced).storeBytes(of: sum, as: SIMD8<Float>.self)
                produced += 8
                index += 16
            }
            while index < count {
                let x = samples + index
                output[produced] = h0 * (x[0] + x[6]) + h1 * (x[1] + x[5]) + h2 * (x[2] + x[4]) + h3 * x[3]
                produced += 1
                index += 2
            }
            newerOnce = (index - count) == 0
        }
        nextIsNewer = newerOnce
        half.append(UnsafeBufferPointer(start: output, count: produced))
        return produced
    }
}
