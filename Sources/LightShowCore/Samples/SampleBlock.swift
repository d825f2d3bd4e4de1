/// A run of interleaved float samples (−1…1) handed from a source to the analyzer.
public struct SampleBlock: Sendable {
    /// Interleaved samples, `frameCount * channels` of them.
    public var samples: [Float]
    public var channels: Int
    public var sampleRate: Int
    /// Index of the first frame counted from the start of the input; gives each block its place on the audio timeline.
    public var startFrame: Int64
    /// Monotonic time (nanoseconds, `CLOCK_MONOTONIC`) when the newest sample was captured; nil for offline input.
    public var captureTimeNanoseconds: UInt64?

    public init(samples: [Float], channels: Int, sampleRate: Int, startFrame: Int64, captureTimeNanoseconds: UInt64? = nil) {
        precondition(channels > 0 && samples.count % channels == 0, "samples must hold whole frames")
        self.samples = samples
        self.channels = channels
        self.sampleRate = sampleRate
        self.startFrame = startFrame
        self.captureTimeNanoseconds = captureTimeNanoseconds
    }

    public var frameCount: Int { samples.count / channels }

    /// Audio time (seconds from the start of the input) just after the last frame.
    public var endTime: Double { Double(startFrame + Int64(frameCount)) / Double(sampleRate) }

    /// The first `frames` frames (all of them when there are fewer).
    public func prefix(frames: Int) -> SampleBlock {
        guard frames < frameCount else { return self }
        return SampleBlock(
            samples: Array(samples.prefix(max(0, frames) * channels)), channels: channels, sampleRate: sampleRate,
            startFrame: startFrame, captureTimeNanoseconds: captureTimeNanoseconds
        )
    }

    /// Averages the channels into `output` (replaced); analysis runs on mono.
    public func downmix(into output: inout [Float]) {
        output.removeAll(keepingCapacity: true)
        if channels == 1 {
            output.append(contentsOf: samples)
            return
        }
        let frames = frameCount
        let channels = channels
        output.append(contentsOf: repeatElement(0, count: frames))
        samples.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { mono in
                // Straight loops over raw pointers so the compiler can vectorize them; stereo is the common case.
                if channels == 2 {
                    for frame in 0..<frames { mono[frame] = (source[2 * frame] + source[2 * frame + 1]) * 0.5 }
                    return
                }
                let scale = 1 / Float(channels)
                for frame in 0..<frames {
                    var sum: Float = 0
                    for channel in 0..<channels { sum += source[frame * channels + channel] }
                    mono[frame] = sum * scale
                }
            }
        }
    }
}
