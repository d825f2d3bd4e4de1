import Foundation
import LightShowAudio
import LightShowCore
import Testing
import TestSupport

@Suite struct DemoSourceTests {
    @Test func synthIsAPureFunctionOfTime() {
        let synth = DemoSynth()
        var whole: [Float] = []
        synth.render(from: 0, frameCount: 4_000, into: &whole)
        var part: [Float] = []
        synth.render(from: 1_500, frameCount: 1_000, into: &part)
        #expect(Array(whole[3_000..<5_000]) == part)
        var again: [Float] = []
        DemoSynth().render(from: 0, frameCount: 4_000, into: &again)
        #expect(again == whole)
    }

    /// Band energies of a two-second bar of the loop (a 65536-frame stretch of its left channel).
    private func energies(bar: Int, of left: [Float]) -> [Double] {
        let start = bar * 2 * DemoSynth.sampleRate
        let stretch = Array(left[start..<(start + 65_536)])
        let total = Spectrum.power(stretch).dropFirst().reduce(0, +)
        let shares = Spectrum.energyShares(stretch, sampleRate: DemoSynth.sampleRate,
                                           ranges: [20...250, 250...4_000, 4_000...16_000])
        return shares.map { $0 * total }
    }

    @Test func eachBandHasItsPartAndItsRest() throws {
        var stereo: [Float] = []
        DemoSynth().render(from: 0, frameCount: 16 * DemoSynth.sampleRate, into: &stereo)
        #expect(stereo.allSatisfy { abs($0) <= 1 }, "no clipping")
        let left = Spectrum.channel(0, of: stereo, channels: 2)
        let full = energies(bar: 0, of: left)
        let total = full.reduce(0, +)
        for (band, energy) in zip(["bass", "mid", "treble"], full) {
            #expect(energy / total > 0.05, "\(band) takes part in the first bar: \(energy / total)")
        }
        #expect(energies(bar: 6, of: left)[0] < full[0] / 10, "bar 7 drops the kick")
        #expect(energies(bar: 7, of: left)[1] < full[1] / 10, "bar 8 drops the chords")
        #expect(energies(bar: 4, of: left)[2] < full[2] / 10, "bar 5 drops the hats")
    }

    @Test func offlineRendersExactlyTheDuration() async throws {
        let source = try AudioSources.open(.demo, pacing: .offline, duration: 2)
        #expect(source.sampleRate == 48_000 && source.channels == 2 && !source.isLive)
        let collector = BlockCollector(source)
        #expect(await collector.waitForEnd())
        #expect(collector.frameCount == 96_000)
        // Unpaced: big blocks without capture times (a wall-clock bound would measure the machine's load).
        #expect(collector.blocks.allSatisfy { $0.captureTimeNanoseconds == nil && $0.frameCount == 4_800 })
        var expected: [Float] = []
        DemoSynth().render(from: 0, frameCount: 96_000, into: &expected)
        #expect(collector.samples == expected)
    }

    @Test func naturalPacingIsRealTime() async throws {
        let source = try AudioSources.open(.demo)
        #expect(source.isLive)
        let started = Date()
        let collector = BlockCollector(source)
        #expect(await collector.waitForFrames(24_000))
        #expect(Date().timeIntervalSince(started) >= 0.45, "half a second of demo takes half a second")
        collector.stop()
        #expect(collector.blocks.allSatisfy { $0.frameCount == 240 && $0.captureTimeNanoseconds != nil })
        #expect(await collector.waitForEnd())
    }

    @Test func badDurationIsAUsageError() {
        do {
            _ = try AudioSources.open(.demo, pacing: .offline, duration: -1)
            Issue.record("a negative duration opened")
        } catch let error as LightShowError {
            #expect(error.exitStatus == .usage)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
