#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import LightShowCore

extension SampleBlock {
    /// True when the RMS of the block's mono mix reaches `dbfs` (0 dBFS = RMS of 1): what the analysis gate
    /// measures, since it runs on that mix (channels in opposite phase cancel there). A cheap test for sound while
    /// the analysis sleeps: it runs on every block then, so mono and stereo take eight frames a step.
    public func isLouder(thanDBFS dbfs: Double) -> Bool {
        let frames = frameCount, channels = max(1, channels)
        guard frames > 0 else { return false }
        // Eight partial sums: a single running sum can't be vectorised (float addition isn't associative).
        var lanes = SIMD8<Float>()
        var tail: Float = 0
        samples.withUnsafeBufferPointer { buffer in
            let whole = frames / 8 * 8
            var frame = 0
            switch channels {
            case 1:
                while frame < whole {
                    let chunk = SIMD8<Float>(buffer[frame..<frame + 8])
                    lanes += chunk * chunk
                    frame += 8
                }
            case 2:
                while frame < whole {
                    let pairs = SIMD16<Float>(buffer[2 * frame..<2 * frame + 16])
                    let mixed = (pairs.evenHalf + pairs.oddHalf) * 0.5
                    lanes += mixed * mixed
                    frame += 8
                }
            default:
                break
            }
            // The rest, and every frame of three channels or more.
            let scale = 1 / Float(channels)
            while frame < frames {
                var sum: Float = 0
                for channel in 0..<channels { sum += buffer[frame * channels + channel] }
                let mixed = sum * scale
                tail += mixed * mixed
                frame += 1
            }
        }
        let sum = Double(lanes.sum()) + Double(tail)
        // Compare powers rather than taking a log per block.
        return sum / Double(frames) >= pow(10, dbfs / 10)
    }
}
