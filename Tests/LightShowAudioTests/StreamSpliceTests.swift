@testable import LightShowAudio
import Testing

/// The join between two streams: no step from the old signal's last sample to the new one's first.
@Suite struct StreamSpliceTests {
    /// Largest jump between neighbouring samples of one channel of interleaved stereo.
    static func largestStep(_ samples: [Float]) -> Float {
        stride(from: 2, to: samples.count, by: 2).map { abs(samples[$0] - samples[$0 - 2]) }.max() ?? 0
    }

    @Test func aCutRampsDownThenFadesIn() {
        var splice = StreamSplice(channels: 2, rampFrames: 240)
        // The old stream ends at full scale; the new one starts at full scale of the opposite sign.
        let old = [Float](repeating: 0.9, count: 200)
        let new = [Float](repeating: -0.9, count: 1_000)
        let first = splice.splice(old)
        #expect(first == old, "nothing to splice before a cut")
        splice.cut()
        let joined = splice.splice(new)
        #expect(joined.count == new.count + 240 * 2, "a 5 ms ramp down before the new stream")
        let whole = first + joined
        // A hard cut would jump 1.8; spliced, no step is larger than a ramp's slope.
        #expect(Self.largestStep(whole) < 0.01, "largest step \(Self.largestStep(whole))")
        #expect(joined.suffix(100).allSatisfy { $0 == -0.9 }, "after the fade, the new stream untouched")
    }

    @Test func withoutACutNothingChanges() {
        var splice = StreamSplice(channels: 2, rampFrames: 240)
        let block = (0..<400).map { Float($0 % 7) / 7 }
        #expect(splice.splice(block) == block)
        #expect(splice.splice(block) == block)
    }
}
