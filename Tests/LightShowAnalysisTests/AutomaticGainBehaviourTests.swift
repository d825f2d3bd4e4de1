import LightShowAnalysis
import LightShowCore
import Testing
import TestSupport

/// The automatic gain on real spectra: quiet songs come back up, steady signals don't pump.
@Suite struct AutomaticGainBehaviourTests {
    @Test func followsATwentyDBQuieterSongBackUpWithoutPumping() throws {
        let settings = AnalysisSettings()
        let loud = Signals.sine(frequency: 1000, seconds: 3, sampleRate: 48_000, amplitude: 0.5)
        let quiet = Signals.sine(frequency: 1000, seconds: 14, sampleRate: 48_000, amplitude: 0.05)
        let frames = AnalyzerHarness.frames(loud + quiet, settings: settings)
        let mid = frames.map(\.levels.mid)

        // Loud song settled: full light, and a steady signal holds steady (no pumping).
        let loudSettled = frames.filter { $0.time > 1 && $0.time < 3 }.map(\.levels.mid)
        #expect((loudSettled.min() ?? 0) >= 0.95)
        #expect((loudSettled.max() ?? 0) - (loudSettled.min() ?? 0) <= 0.01)

        // Right after the drop the light is dimmer: the gain does not jump.
        let justAfter = try #require(frames.first { $0.time > 3.5 }).levels.mid
        #expect(justAfter < 0.7)

        // Then, once the release has settled (a few release times), the gain recovers: the level never falls
        // while the quiet song plays steadily…
        let recovering = frames.indices.filter { frames[$0].time > 3 + 8 * settings.releaseMilliseconds / 1000 }
        for index in recovering.dropFirst() {
            #expect(mid[index] >= mid[index - 1] - 0.001, "pumping at \(frames[index].time) s")
        }
        // …and the quiet song ends up as bright as the loud one was.
        let quietSettled = frames.filter { $0.time > 14 }.map(\.levels.mid)
        #expect((quietSettled.min() ?? 0) >= 0.95)
    }

    @Test func gainIsBoundedForVeryQuietInput() {
        // 50 dB below full scale is past the maximum gain: even after long recovery it stays dim.
        var settings = AnalysisSettings()
        settings.silenceThresholdDBFS = -90
        let faint = Signals.sine(frequency: 1000, seconds: 15, sampleRate: 48_000, amplitude: 0.5 * 0.003_16)
        let frames = AnalyzerHarness.frames(faint, settings: settings)
        let level = frames.last?.levels.mid ?? 1
        // Level −56 dB against the floor ceiling −30 dB and a 30 dB range: alpha ≈ 0.13.
        #expect(level > 0.05 && level < 0.25, "got \(level)")
    }
}
