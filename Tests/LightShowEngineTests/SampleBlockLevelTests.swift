import Foundation
import LightShowCore
import LightShowEngine
import Testing

/// The sleeping show's test for sound measures the mono mix, as the analysis gate does.
@Suite struct SampleBlockLevelTests {
    /// A 1 kHz sine at 48 kHz with peak `amplitude`: its RMS is amplitude/√2.
    static func sine(frames: Int, amplitude: Float) -> [Float] {
        (0..<frames).map { amplitude * Float(sin(2 * Double.pi * 1000 * Double($0) / 48_000)) }
    }

    static func block(_ channels: [[Float]]) -> SampleBlock {
        let frames = channels[0].count
        let samples = (0..<frames).flatMap { frame in channels.map { $0[frame] } }
        return SampleBlock(samples: samples, channels: channels.count, sampleRate: 48_000, startFrame: 0)
    }

    // 0.1 peak: RMS 0.0707, -23.0 dBFS. Odd frame counts take the tail path too.
    @Test(arguments: [1, 2, 3], [480, 487])
    func aSineIsMeasuredAtItsRMS(channels: Int, frames: Int) {
        let tone = Self.sine(frames: frames, amplitude: 0.1)
        let block = Self.block(Array(repeating: tone, count: channels))
        #expect(block.isLouder(thanDBFS: -23.5))
        #expect(!block.isLouder(thanDBFS: -22.5))
    }

    @Test(arguments: [480, 487])
    func channelsInOppositePhaseCancel(frames: Int) {
        let tone = Self.sine(frames: frames, amplitude: 0.5)
        let block = Self.block([tone, tone.map { -$0 }])
        #expect(!block.isLouder(thanDBFS: -120))
    }

    /// One silent channel of two halves the mix: 6 dB down.
    @Test func oneChannelOfTwoIsSixDecibelsDown() {
        let tone = Self.sine(frames: 480, amplitude: 0.1)
        let block = Self.block([tone, Array(repeating: 0, count: 480)])
        #expect(block.isLouder(thanDBFS: -29.5))
        #expect(!block.isLouder(thanDBFS: -28.5))
    }
}
