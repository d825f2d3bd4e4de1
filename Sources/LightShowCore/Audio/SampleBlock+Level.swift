#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SampleBlock {
    /// True when the RMS of the block's mono mix reaches `dbfs` (0 dBFS = RMS of 1): what the analysis gate
    /// measures, since it runs on that mix (channels in opposite phase cancel there). A cheap test for sound while
    /// the analysis sleeps.
    public func isLouder(thanDBFS dbfs: Double) -> Bool {
        let frames = frameCount, channels = max(1, channels)
        guard frames > 0 else { return false }
        let scale = 1 / Float(channels)
        var sum: Double = 0
        samples.withUnsafeBufferPointer { buffer in
            // Eight partial sums per pass: a single running sum can't be vectorised (float addition isn't associative).
            var lanes = SIMD8<Float>()
            var frame = 0
            var mixed = SIMD8<Float>()
            while frame < frames {
                var sample: Float = 0
                for channel in 0..<channels { sample += buffer[frame * channels + channel] }
                sample *= scale
                mixed[frame & 7] = sample * sample
                frame += 1
                if frame & 7 == 0 { lanes += mixed }
            }
            if frames & 7 != 0 {
                for lane in 0..<(frames & 7) { lanes[lane] += mixed[lane] }
            }
            sum = Double(lanes.sum())
        }
        // Compare powers rather than taking a log per block.
        return sum / Double(frames) >= pow(10, dbfs / 10)
    }
}
