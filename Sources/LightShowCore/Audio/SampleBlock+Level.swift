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
        // Eight partial sums: a single running sum can't be vectorised (float addition isn't associative).
        var lanes = SIMD8<Float>()
        var tail: Float = 0
        samples.withUnsafeBufferPointer { buffer in
            let whole = buffer.count / 8 * 8
            var index = 0
            while index < whole {
                let chunk = SIMD8<Float>(buffer[index..<index + 8])
                lanes += chunk * chunk
                index += 8
            }
            for sample in buffer[whole...] { tail += sample * sample }
        }
        let sum = Double(lanes.sum()) + Double(tail)
        // Compare powers rather than taking a log per block.
        return sum / Double(samples.count) >= pow(10, dbfs / 10)
    }
}
