/// Smooths the cut when one record stream replaces another (an output switch, a vanished sink, a lost server):
/// the last frame delivered ramps down to zero over a few milliseconds and what follows fades in over as many.
/// A hard cut between two unrelated signals is a step, whose spectrum lights every band for a moment.
struct StreamSplice: Sendable {
    let channels: Int
    let rampFrames: Int
    private var lastFrame: [Float]
    private var rampFrom: [Float]?
    private var fadeInLeft = 0

    init(channels: Int, rampFrames: Int) {
        self.channels = channels
        self.rampFrames = rampFrames
        lastFrame = [Float](repeating: 0, count: channels)
    }

    /// The stream delivering so far is gone: the next block is spliced on.
    mutating func cut() {
        if rampFrom == nil { rampFrom = lastFrame }
        fadeInLeft = rampFrames
    }

    /// Prepends the ramp down (after a cut) and fades the start of `samples` in; remembers their last frame.
    mutating func splice(_ samples: [Float]) -> [Float] {
        guard samples.count >= channels else { return samples }
        var output: [Float] = []
        if let from = rampFrom, from.contains(where: { $0 != 0 }) {
            output.reserveCapacity(rampFrames * channels + samples.count)
            for frame in 0..<rampFrames {
                let gain = Float(rampFrames - frame) / Float(rampFrames + 1)
                for channel in 0..<channels { output.append(from[channel] * gain) }
            }
        }
        rampFrom = nil
        var faded = samples
        if fadeInLeft > 0 {
            let frames = faded.count / channels
            for frame in 0..<min(frames, fadeInLeft) {
                let gain = Float(rampFrames - fadeInLeft + frame + 1) / Float(rampFrames + 1)
                for channel in 0..<channels { faded[frame * channels + channel] *= gain }
            }
            fadeInLeft = max(0, fadeInLeft - frames)
        }
        lastFrame = Array(faded.suffix(channels))
        return output.isEmpty ? faded : output + faded
    }
}
