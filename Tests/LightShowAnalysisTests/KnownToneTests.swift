import LightShowAnalysis
import LightShowCore
import Testing
import TestSupport

/// The README's "How the levels are computed": a steady tone lights its own band and leaves the others dark once settled.
@Suite struct KnownToneTests {
    static let rates = [44_100, 48_000]

    static func settledLevels(frequency: Double, sampleRate: Int) -> [BandLevels] {
        let tone = Signals.sine(frequency: frequency, seconds: 2, sampleRate: sampleRate, amplitude: 0.5)
        let frames = AnalyzerHarness.frames(tone, sampleRate: sampleRate)
        return AnalyzerHarness.settled(frames, lastSeconds: 1)
    }

    @Test(arguments: [40.0, 60, 100, 200], rates)
    func bassToneLightsBassAlone(frequency: Double, sampleRate: Int) {
        let levels = Self.settledLevels(frequency: frequency, sampleRate: sampleRate)
        #expect(!levels.isEmpty)
        #expect(levels.map(\.bass).min() ?? 0 >= 0.8, "\(frequency) Hz bass \(levels.map(\.bass).min() ?? 0)")
        #expect(levels.map(\.mid).max() ?? 1 <= 0.1, "\(frequency) Hz mid \(levels.map(\.mid).max() ?? 1)")
        #expect(levels.map(\.treble).max() ?? 1 <= 0.1, "\(frequency) Hz treble \(levels.map(\.treble).max() ?? 1)")
    }

    @Test(arguments: [500.0, 1000, 2000], rates)
    func midToneLightsMidAlone(frequency: Double, sampleRate: Int) {
        let levels = Self.settledLevels(frequency: frequency, sampleRate: sampleRate)
        #expect(!levels.isEmpty)
        #expect(levels.map(\.mid).min() ?? 0 >= 0.8, "\(frequency) Hz mid \(levels.map(\.mid).min() ?? 0)")
        #expect(levels.map(\.bass).max() ?? 1 <= 0.1, "\(frequency) Hz bass \(levels.map(\.bass).max() ?? 1)")
        #expect(levels.map(\.treble).max() ?? 1 <= 0.1, "\(frequency) Hz treble \(levels.map(\.treble).max() ?? 1)")
    }

    @Test(arguments: [5000.0, 8000, 12000], rates)
    func trebleToneLightsTrebleAlone(frequency: Double, sampleRate: Int) {
        let levels = Self.settledLevels(frequency: frequency, sampleRate: sampleRate)
        #expect(!levels.isEmpty)
        #expect(levels.map(\.treble).min() ?? 0 >= 0.8, "\(frequency) Hz treble \(levels.map(\.treble).min() ?? 0)")
        #expect(levels.map(\.bass).max() ?? 1 <= 0.1, "\(frequency) Hz bass \(levels.map(\.bass).max() ?? 1)")
        #expect(levels.map(\.mid).max() ?? 1 <= 0.1, "\(frequency) Hz mid \(levels.map(\.mid).max() ?? 1)")
    }

    @Test(arguments: rates)
    func silenceGivesZero(sampleRate: Int) {
        let frames = AnalyzerHarness.frames(Signals.silence(seconds: 1, sampleRate: sampleRate), sampleRate: sampleRate)
        #expect(frames.count == 60)
        #expect(frames.allSatisfy { $0.levels == .zero && !$0.hasSound })
    }

    @Test(arguments: rates)
    func quietNoiseGivesZero(sampleRate: Int) {
        let noise = Signals.noise(dbfs: -70, seconds: 1.5, sampleRate: sampleRate)
        let frames = AnalyzerHarness.frames(noise, sampleRate: sampleRate)
        #expect(frames.allSatisfy { $0.levels == .zero && !$0.hasSound })
        // The RMS really is about −70 dBFS: the gate judged a real signal, not digital zero.
        #expect(abs((frames.last?.rmsDBFS ?? 0) + 70) < 1)
    }

    @Test func stereoIsDownmixedBeforeAnalysis() {
        let tone = Signals.sine(frequency: 1000, seconds: 1.5, sampleRate: 48_000, amplitude: 0.5)
        let frames = AnalyzerHarness.frames(tone, channels: 2)
        let levels = AnalyzerHarness.settled(frames, lastSeconds: 0.5)
        #expect(levels.map(\.mid).min() ?? 0 >= 0.8)
        #expect(abs((frames.last?.rmsDBFS ?? 0) - Float(Decibels.fromAmplitude(0.5 / 2.0.squareRoot()))) < 0.2)
    }
}
