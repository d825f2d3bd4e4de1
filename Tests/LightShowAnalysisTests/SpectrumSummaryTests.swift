import Foundation
import LightShowAnalysis
import LightShowCore
import Testing

/// The spectrum summary WLED audio sync sends, from the real analyser on known sines: each GEQ channel's centre
/// lights that channel most, the peak is found where the tone is, and nothing is measured unless asked for.
@Suite struct SpectrumSummaryTests {
    static func tone(_ frequency: Double, seconds: Double, amplitude: Float = 0.3, rate: Int) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / Double(rate))) }
    }

    static func summaries(_ mono: [Float], rate: Int, bands: BandsSettings = BandsSettings()) -> [SpectrumSummary] {
        let analyzer = LevelAnalyzer(
            settings: AnalysisSettings(), bands: bands, sampleRate: rate, framesPerSecond: 60
        )
        analyzer.summarizeSpectrum(true, settings: AnalysisSettings())
        return AnalyzerHarness.frames(mono, analyzer: analyzer).compactMap(\.spectrum)
    }

    @Test(arguments: [44_100, 48_000])
    func eachChannelsCentreLightsThatChannelMost(rate: Int) {
        for channel in 0..<SpectrumSummary.channelCount {
            let centre = SpectrumSummary.centre(of: channel)
            let settled = Self.summaries(Self.tone(centre, seconds: 0.5, rate: rate), rate: rate).suffix(10)
            for summary in settled {
                let loudest = (0..<16).max { summary.channels[$0] < summary.channels[$1] }
                #expect(loudest == channel, "\(centre) Hz at \(rate) Hz: \(summary.channels)")
                #expect(summary.channels[channel] > 0.9, "\(centre) Hz: \(summary.channels)")
            }
        }
    }

    @Test(arguments: [440.0, 1000.0, 3000.0, 8000.0])
    func thePeakIsTheTonesFrequency(frequency: Double) throws {
        let summary = try #require(Self.summaries(Self.tone(frequency, seconds: 0.5, rate: 44_100), rate: 44_100).last)
        #expect(abs(Double(summary.peakFrequency) - frequency) < frequency * 0.02, "\(summary.peakFrequency) Hz")
        #expect(summary.peakLevel > 0.8)
    }

    @Test func quietMusicStillFillsTheBars() throws {
        // 30 dB below the tones above (-40 dBFS): the gain lifts the bar to most of its height.
        let quiet = Self.tone(1000, seconds: 3, amplitude: 0.01, rate: 48_000)
        let summary = try #require(Self.summaries(quiet, rate: 48_000).last)
        #expect(summary.channels[7] > 0.6, "\(summary.channels)")
    }

    @Test func bandsThatUseOnlyTheShortWindowStillGetLowChannels() throws {
        var bands = BandsSettings()
        bands.bass.range = FrequencyRange(lower: 2000, upper: 3000)
        bands.mid.range = FrequencyRange(lower: 3000, upper: 5000)
        bands.treble.range = FrequencyRange(lower: 5000, upper: 10000)
        let summary = try #require(Self.summaries(Self.tone(60.8, seconds: 0.5, rate: 48_000), rate: 48_000, bands: bands).last)
        #expect(summary.channels[0] > 0.9, "\(summary.channels)")
    }

    @Test func silenceIsDarkAndOffMeansNoSummary() throws {
        let silent = Self.summaries([Float](repeating: 0, count: 48_000), rate: 48_000)
        #expect(!silent.isEmpty && silent.allSatisfy { $0.channels == .zero && $0.peakFrequency == 0 })
        let plain = AnalyzerHarness.frames(Self.tone(1000, seconds: 0.3, rate: 48_000))
        #expect(!plain.isEmpty && plain.allSatisfy { $0.spectrum == nil })
    }

    @Test func bassOnsetsAreRememberedAcrossFrames() throws {
        // Accents on (the default): a kick out of silence is a bass onset, and every later summary names it.
        let rate = 48_000
        var mono = [Float](repeating: 0, count: rate / 2)
        mono += (0..<(rate / 5)).map { 0.8 * Float(exp(-Double($0) / (0.06 * Double(rate))) * sin(2 * Double.pi * 60 * Double($0) / Double(rate))) }
        mono += [Float](repeating: 0, count: rate / 2)
        let analyzer = LevelAnalyzer(settings: AnalysisSettings(), bands: BandsSettings(), sampleRate: rate, framesPerSecond: 60)
        analyzer.summarizeSpectrum(true, settings: AnalysisSettings())
        let frames = AnalyzerHarness.frames(mono, analyzer: analyzer)
        let onset = try #require(frames.flatMap(\.onsets).first { $0.band == .bass })
        #expect(abs(onset.time - 0.5) < 0.1)
        let after = frames.filter { $0.time > onset.time + 0.05 }
        #expect(!after.isEmpty && after.allSatisfy { $0.spectrum?.lastBassOnset == onset.time })
    }
}
