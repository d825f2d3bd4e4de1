import LightShowAnalysis
import LightShowCore
import Testing
import TestSupport

/// Attack, frame-rate independence and hop accounting of the whole analyzer.
@Suite struct EnvelopeTimingTests {
    @Test(arguments: [44_100, 48_000])
    func burstRisesToHalfWithinAttackPlusOneHop(sampleRate: Int) throws {
        let settings = AnalysisSettings()
        let onset = 0.5
        let burst = Signals.silence(seconds: onset, sampleRate: sampleRate)
            + Signals.sine(frequency: 60, seconds: 1.5, sampleRate: sampleRate, amplitude: 0.5)
        let fps = 60.0
        let frames = AnalyzerHarness.frames(burst, sampleRate: sampleRate, fps: fps, settings: settings)
        let settled = try #require(frames.last).levels.bass
        #expect(settled >= 0.8)
        let firstHalf = try #require(frames.first { $0.levels.bass >= settled / 2 })
        let allowed = settings.attackMilliseconds / 1000 + 1 / fps
        #expect(firstHalf.time - onset <= allowed, "half level \((firstHalf.time - onset) * 1000) ms after onset")
        #expect(firstHalf.time > onset, "nothing may light before the burst")
    }

    @Test func sameEnvelopeAt30And60FPS() throws {
        // Kick-like bursts and a mid tone that steps down: the envelope must follow the same curve at both rates.
        var signal: [Float] = []
        for _ in 0..<4 {
            signal += Signals.sine(frequency: 60, seconds: 0.2, sampleRate: 48_000, amplitude: 0.6)
            signal += Signals.silence(seconds: 0.3, sampleRate: 48_000)
        }
        signal += Signals.sine(frequency: 1000, seconds: 1, sampleRate: 48_000, amplitude: 0.5)
        signal += Signals.sine(frequency: 1000, seconds: 1, sampleRate: 48_000, amplitude: 0.05)
        let at30 = AnalyzerHarness.frames(signal, fps: 30)
        let at60 = AnalyzerHarness.frames(signal, fps: 60)
        #expect(at30.count == 120)
        #expect(at60.count == 240)
        var worst: Float = 0
        var total: Float = 0
        for (index, frame) in at30.enumerated() {
            let twin = at60[index * 2 + 1]
            #expect(abs(twin.time - frame.time) < 1e-9)
            for band in Band.allCases {
                let difference = abs(twin.levels[band] - frame.levels[band])
                worst = max(worst, difference)
                total += difference
            }
        }
        let mean = total / Float(at30.count * Band.allCases.count)
        // Between onsets the curves coincide; at a hard onset each rate catches the click at a different point of
        // its hop, which bounds the largest difference.
        #expect(mean <= 0.01, "mean difference between 30 and 60 fps: \(mean)")
        #expect(worst <= 0.1, "largest difference between 30 and 60 fps: \(worst)")
    }

    @Test(arguments: [(44_100, 60.0), (48_000, 60.0), (44_100, 23.976), (48_000, 240.0), (44_100, 1.0)])
    func nSecondsGiveNTimesFPSFrames(sampleRate: Int, fps: Double) {
        let seconds = 3
        let frames = AnalyzerHarness.frames(
            Signals.silence(seconds: Double(seconds), sampleRate: sampleRate), sampleRate: sampleRate, fps: fps, blockSize: 777
        )
        #expect(frames.count == Int((Double(seconds) * fps).rounded(.down)))
        // Frame k ends at ⌊k·rate/fps⌋ samples.
        for (index, frame) in frames.enumerated() {
            let boundary = (Double(index + 1) * Double(sampleRate) / fps).rounded(.down)
            #expect(abs(frame.time - boundary / Double(sampleRate)) < 1e-9)
        }
    }

    @Test func timeFollowsTheBlocksTimelineAndCaptureTime() throws {
        let analyzer = LevelAnalyzer(settings: AnalysisSettings(), bands: BandsSettings(), sampleRate: 48_000, framesPerSecond: 60)
        // One block of 1000 frames that starts 48 000 frames into the input and was captured at t = 5 s.
        let block = SampleBlock(
            samples: [Float](repeating: 0, count: 1000), channels: 1, sampleRate: 48_000,
            startFrame: 48_000, captureTimeNanoseconds: 5_000_000_000
        )
        let frames = analyzer.process(block)
        let frame = try #require(frames.first)
        #expect(frames.count == 1)
        #expect(abs(frame.time - (1 + 800.0 / 48_000)) < 1e-9)
        // The hop ended 200 samples before the block's newest sample.
        let expected = 5_000_000_000 - UInt64(200.0 / 48_000 * 1e9)
        #expect(frame.captureTimeNanoseconds == expected)
    }

    @Test func bandUpdateTakesEffectAtTheNextHop() {
        // A 1 kHz tone lights the mid; moving the bass band up over 1 kHz makes bass pick it up.
        let tone = Signals.sine(frequency: 1000, seconds: 1, sampleRate: 48_000, amplitude: 0.5)
        let analyzer = LevelAnalyzer(settings: AnalysisSettings(), bands: BandsSettings(), sampleRate: 48_000, framesPerSecond: 60)
        let before = AnalyzerHarness.frames(tone, analyzer: analyzer)
        #expect((before.last?.levels.bass ?? 1) <= 0.1)
        var bands = BandsSettings()
        bands.bass.range = FrequencyRange(lower: 20, upper: 1500)
        bands.mid.range = FrequencyRange(lower: 1500, upper: 4000)
        analyzer.updateBands(bands)
        let after = AnalyzerHarness.frames(tone, analyzer: analyzer)
        #expect((after.last?.levels.bass ?? 0) >= 0.8)
        #expect((after.last?.levels.mid ?? 1) <= 0.1)
    }
}
