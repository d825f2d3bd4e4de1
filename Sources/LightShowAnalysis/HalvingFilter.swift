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
    static let taps: [Float] = [1, 6, 15, 20, 15, 6, 1].map { $0 / 64 }
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

    /// Takes the `count` samples just appended to `full` (at most `longestPiece`) and appends their outputs to
    /// `half`.
    func follow(_ full: SampleHistory, appended count: Int, into half: inout SampleHistory) {
        guard count > 0 else { return }
        var produced = 0
        var newerOnce = nextIsNewer
        let output = output
        full.withNewest(count + Self.span - 1) { samples in
            let (h0, h1, h2, h3) = (Self.taps[0], Self.taps[1], Self.taps[2], Self.taps[3])
            // Sample `index` of the piece is `samples[index + span − 1]`; its output reads the 7 ending there.
            var index = newerOnce ? 0 : 1
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
    }
}
