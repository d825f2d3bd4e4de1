#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SampleBlock {
    /// True when the block's RMS over all channels reaches `dbfs` (0 dBFS = RMS of 1).
    /// A cheap test for sound while the analysis sleeps.
    public func isLouder(thanDBFS dbfs: Double) -> Bool {
        guard !samples.isEmpty else { return false }
        var sum: Float = 0
        for sample in samples { sum += sample * sample }
        // Compare powers rather than taking a log per block.
        return Double(sum) / Double(samples.count) >= pow(10, dbfs / 10)
    }
}
