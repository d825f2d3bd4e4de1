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

    /// A sine switched on abruptly after silence: its first milliseconds spill into the neighbouring band's level
    /// (a short window can't tell them apart, and each band's ceiling sits within `band_spread_db` of the loudest's),
    /// which the neighbours' new energy taken off each band keeps to under 0.25 (0.41 without), gone once settled.
    @Test(arguments: [30.0, 60.0])
    func aSwitchedOnSineSpillsLittleIntoOtherBands(fps: Double) throws {
        for (band, frequency) in Self.tones {
            let signal = Signals.silence(seconds: 0.5, sampleRate: 48_000)
                + Signals.sine(frequency: frequency, seconds: 1, sampleRate: 48_000, amplitude: 0.5)
            let frames = AnalyzerHarness.frames(signal, sampleRate: 48_000, fps: fps)
            #expect(try #require(frames.last).levels[band] >= 0.8)
            for other in Band.allCases where other != band {
                let highest = frames.map { $0.levels[other] }.max() ?? 1
                #expect(highest <= 0.25, "\(frequency) Hz at \(fps) fps lifted \(other) to \(highest)")
                let settled = frames.filter { $0.time > 1.0 }.map { $0.levels[other] }.max() ?? 1
                #expect(settled <= 0.1, "\(frequency) Hz at \(fps) fps left \(other) at \(settled)")
            }
        }
    }
}
