import LightShowAnalysis
import LightShowCore
import Testing
import TestSupport

/// How soon a band's level answers: the light must not trail the sound. Accents off, so the envelope alone is timed.
@Suite struct LevelTimingTests {
    /// A tone in the middle of each default band.
    static let tones: [(band: Band, frequency: Double)] = [(.bass, 60), (.mid, 1000), (.treble, 8000)]

    /// Four 0.3 s bursts 0.5 s apart (the gain established by the first ones), the last starting `lead` seconds
    /// before a frame boundary. Returns the frames and the last burst's start.
    static func burstTrain(
        frequency: Double, sampleRate: Int, fps: Double, lead: Double
    ) -> (frames: [AnalysisFrame], start: Double) {
        let rate = Double(sampleRate)
        // The last burst starts at 3 s less the lead, rounded to a frame boundary of the schedule.
        let boundary = (3 * fps).rounded(.down)
        let start = (boundary * rate / fps).rounded(.down) / rate - lead
        var signal = Signals.silence(seconds: start - 3 * 0.8, sampleRate: sampleRate)
        for _ in 0..<4 {
            signal += Signals.sine(frequency: frequency, seconds: 0.3, sampleRate: sampleRate, amplitude: 0.5)
            signal += Signals.silence(seconds: 0.5, sampleRate: sampleRate)
        }
        return (AnalyzerHarness.frames(signal, sampleRate: sampleRate, fps: fps), start)
    }

    @Test(arguments: [30.0, 60.0], [0.010, 0.013])
    func toneBurstReachesHalfItsRiseWithin10ms(fps: Double, lead: Double) throws {
        for (band, frequency) in Self.tones {
            let (frames, start) = Self.burstTrain(frequency: frequency, sampleRate: 48_000, fps: fps, lead: lead)
            let before = try #require(frames.last { $0.time <= start + 1e-9 })
            let rise = frames.filter { $0.time > start && $0.time <= start + 0.3 }
            let peak = try #require(rise.map { $0.levels[band] }.max())
            #expect(peak >= 0.8, "\(frequency) Hz at \(fps) fps: peak \(peak)")
            // The first frame at least 10 ms into the burst: the frame `lead` after its start.
            let first = try #require(rise.first { $0.time >= start + 0.010 - 1e-9 })
            let base = before.levels[band]
            let half = base + (peak - base) / 2
            #expect(
                first.levels[band] >= half,
                "\(frequency) Hz at \(fps) fps: \(first.levels[band]) \((first.time - start) * 1000) ms in, half is \(half)"
            )
        }
    }
}
