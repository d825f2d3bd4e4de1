import Foundation
import LightShowAnalysis
import LightShowCore
import LightShowEngine
import Testing

/// The analysis measures the spectrum summary exactly while the configuration has a WLED audio sync output: a
/// reload that adds one turns it on from the next hop, one that removes it turns it off.
@Suite struct SpectrumSummaryReloadTests {
    static let rate = 48_000

    static func block(_ seconds: Double, startingAt start: Int) -> SampleBlock {
        let count = Int(seconds * Double(rate))
        let samples = (0..<count).map { Float(0.3 * sin(2 * Double.pi * 1000 * Double(start + $0) / Double(rate))) }
        return SampleBlock(samples: samples, channels: 1, sampleRate: rate, startFrame: Int64(start))
    }

    @Test func aReloadAddingOrRemovingAWLEDSyncOutputTurnsTheSummaryOnAndOff() throws {
        var plain = Configuration()
        var withSync = Configuration()
        withSync.lights = [LightOutputSettings(protocol: .wledSync)]
        let analyzer = LevelAnalyzer(settings: plain.analysis, bands: plain.bands, sampleRate: Self.rate, framesPerSecond: 60)
        analyzer.reconfigure(plain)
        let before = analyzer.process(Self.block(0.5, startingAt: 0))
        analyzer.reconfigure(withSync)
        let during = analyzer.process(Self.block(0.5, startingAt: Self.rate / 2))
        plain.analysis.maximumGainDB = 20
        analyzer.reconfigure(plain)
        let after = analyzer.process(Self.block(0.5, startingAt: Self.rate))
        #expect(!before.isEmpty && before.allSatisfy { $0.spectrum == nil })
        #expect(!during.isEmpty && during.allSatisfy { $0.spectrum != nil })
        // 1 kHz is channel 7 (818-1120 Hz).
        let last = try #require(during.last?.spectrum)
        #expect((0..<16).allSatisfy { last.channels[$0] <= last.channels[7] }, "\(last.channels)")
        #expect(!after.isEmpty && after.allSatisfy { $0.spectrum == nil })
    }
}
