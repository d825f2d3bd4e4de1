import LightShowAnalysis
import LightShowCore
import Testing
import TestSupport

/// Accents through the whole analyser: onsets in the frames, levels the larger of envelope and accent.
@Suite struct AccentLevelsTests {
    let pattern = AccentSignals.pattern(seconds: 4)

    @Test func offGivesExactlyTheEnvelope() {
        var off = AccentSettings()
        off.enabled = false
        let frames = AnalyzerHarness.frames(pattern.samples, accents: off)
        #expect(frames.allSatisfy { $0.levels == $0.envelope && $0.accent == .zero && $0.onsets.isEmpty })
        // With accents on the envelope is the same, shown below full by the headroom: accents only add.
        let on = AnalyzerHarness.frames(pattern.samples, accents: AccentSettings())
        let headroom = Float(1 - AccentSettings().headroom)
        #expect(on.map(\.envelope) == frames.map { $0.levels.scaled(by: headroom) })
    }

    @Test func theLevelIsTheLargerOfEnvelopeAndAccent() {
        let frames = AnalyzerHarness.frames(pattern.samples, accents: AccentSettings())
        for frame in frames {
            for band in Band.allCases {
                #expect(frame.levels[band] == max(frame.envelope[band], frame.accent[band]))
                #expect(frame.levels[band] <= 1)
            }
        }
        #expect(frames.contains { $0.accent.bass > $0.envelope.bass + 0.1 })
    }

    /// Each kick lifts the bass light by at least a tenth of full in the frame its onset lands in. Not the first:
    /// until a kick is heard, the automatic gain has set the held bass alone at the top of the range.
    @Test func kicksLiftTheBassLightInTheirFrame() {
        let frames = AnalyzerHarness.frames(pattern.samples, accents: AccentSettings())
        for kick in pattern.kicks.dropFirst() {
            guard let index = frames.firstIndex(where: { $0.onsets.contains { $0.band == .bass && $0.time > kick } }) else {
                Issue.record("no bass onset after the kick at \(kick)")
                continue
            }
            #expect(frames[index].time - kick <= 1.0 / 60 + 1e-9)
            #expect(frames[index].levels.bass - frames[index - 1].levels.bass >= 0.1, "kick at \(kick)")
        }
    }

    /// The detector has its own hop: 30 and 60 fps, and any block size, decide the same onsets.
    @Test func theSameOnsetsAtThirtyAndSixtyFramesPerSecond() {
        let sixty = AnalyzerHarness.frames(pattern.samples, fps: 60, accents: AccentSettings()).flatMap(\.onsets)
        let thirty = AnalyzerHarness.frames(pattern.samples, fps: 30, accents: AccentSettings(), blockSize: 333).flatMap(\.onsets)
        #expect(!sixty.isEmpty)
        #expect(sixty == thirty)
    }

    @Test func sustainedSoundsGiveNoAccent() {
        let chord = AccentSignals.vibratoTone(frequencies: [110, 220, 277.18, 329.63], depth: 0.02, rate: 6, seconds: 4, fadeIn: 1)
        let tremolo = AccentSignals.tremoloTone(frequency: 440, depth: 0.8, rate: 6, seconds: 4, fadeIn: 1)
        for signal in [chord, tremolo] {
            let frames = AnalyzerHarness.frames(signal, accents: AccentSettings())
            #expect(frames.allSatisfy { $0.accent == .zero && $0.onsets.isEmpty })
        }
    }

    @Test func aReloadTurnsAccentsOffAndOn() {
        let analyzer = LevelAnalyzer(settings: AnalysisSettings(), bands: BandsSettings(), sampleRate: 48_000, framesPerSecond: 60)
        var off = AccentSettings()
        off.enabled = false
        analyzer.updateAccents(off)
        #expect(AnalyzerHarness.frames(pattern.samples, analyzer: analyzer).allSatisfy { $0.onsets.isEmpty })
        analyzer.updateAccents(AccentSettings())
        #expect(AnalyzerHarness.frames(pattern.samples, analyzer: analyzer).contains { !$0.onsets.isEmpty })
    }
}
