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

    /// A sine switched on after silence, in each band: its start spreads over every band in the windows that hold
    /// it (a short window can't tell its first milliseconds from its neighbours', and each band's ceiling sits
    /// within `band_spread_db` of the loudest's), which is taken off as splatter: the other bands stay at or under
    /// 0.1 throughout (0.14–0.41 when they were lifted).
    @Test(arguments: [30.0, 60.0])
    func aSwitchedOnSineLiftsOnlyItsOwnBand(fps: Double) throws {
        for (band, frequency) in Self.tones {
            let frames = AnalyzerHarness.frames(Self.switchedOn(frequency), sampleRate: 48_000, fps: fps)
            #expect(try #require(frames.last).levels[band] >= 0.8)
            for other in Band.allCases where other != band {
                let highest = frames.map { $0.levels[other] }.max() ?? 1
                #expect(highest <= 0.1, "\(frequency) Hz at \(fps) fps lifted \(other) to \(highest)")
            }
        }
    }

    /// The same sines with accents on: no onset and no accent in the bands above their own. (Below, a sine's start
    /// is no onset either: `aSwitchedOnSineGivesNoOnsetInTheBandsBelow`.)
    @Test(arguments: [30.0, 60.0])
    func aSwitchedOnSineGivesNoOnsetInTheBandsAbove(fps: Double) {
        for (index, (band, frequency)) in Self.tones.enumerated() {
            let frames = AnalyzerHarness.frames(
                Self.switchedOn(frequency), sampleRate: 48_000, fps: fps, accents: AccentSettings()
            )
            #expect(frames.flatMap(\.onsets).contains { $0.band == band }, "\(frequency) Hz at \(fps) fps")
            for other in Band.allCases.dropFirst(index + 1) {
                let found = frames.flatMap(\.onsets).filter { $0.band == other }
                #expect(found.isEmpty, "\(frequency) Hz at \(fps) fps: \(found)")
                #expect(frames.allSatisfy { $0.accent[other] == 0 }, "\(frequency) Hz at \(fps) fps: \(other)")
            }
        }
    }

    /// Below a switched-on sine, too: its start splatters down into the lower bands' bins, which rise by many dB
    /// over their silence, yet it is no onset there. (A click, as flat as that splatter in total but with as much
    /// in each bin as in the sine's band, still is: `OnsetDetectorTests`.)
    @Test(arguments: [30.0, 60.0])
    func aSwitchedOnSineGivesNoOnsetInTheBandsBelow(fps: Double) {
        for (index, (band, frequency)) in Self.tones.enumerated() {
            let frames = AnalyzerHarness.frames(
                Self.switchedOn(frequency), sampleRate: 48_000, fps: fps, accents: AccentSettings()
            )
            #expect(frames.flatMap(\.onsets).contains { $0.band == band }, "\(frequency) Hz at \(fps) fps")
            for other in Band.allCases.prefix(index) {
                let found = frames.flatMap(\.onsets).filter { $0.band == other }
                #expect(found.isEmpty, "\(frequency) Hz at \(fps) fps: \(found)")
                #expect(frames.allSatisfy { $0.accent[other] == 0 }, "\(frequency) Hz at \(fps) fps: \(other)")
            }
        }
    }

    /// A tremolo (80 % deep: the amplitude swings 14 dB) is the sound's level changing, and the light follows it:
    /// without accents it rises and falls each cycle, by 0.17 (treble) to over 0.2 of full scale. With accents it
    /// gives no onset and no accent: the light is the same pulse, under the accents' headroom.
    @Test(arguments: [(Band.bass, 110.0), (.mid, 440), (.treble, 5000)])
    func aTremoloPulsesTheLightOncePerCycleWithoutAccent(band: Band, frequency: Double) {
        let rate = 4.0
        let tone = AccentSignals.tremoloTone(frequency: frequency, depth: 0.8, rate: rate, seconds: 4, fadeIn: 1)
        let plain = AnalyzerHarness.frames(tone, sampleRate: 48_000, fps: 60)
        // Whole cycles from 1.5 s, once the fade-in and the gain have settled.
        let cycles = Array(stride(from: 1.5, to: 3.75, by: 1 / rate))
        for start in cycles {
            let levels = plain.filter { $0.time >= start && $0.time < start + 1 / rate }.map { $0.levels[band] }
            let swing = (levels.max() ?? 0) - (levels.min() ?? 0)
            #expect(swing >= 0.15, "\(frequency) Hz: the cycle at \(start) s swung by \(swing)")
        }
        let accented = AnalyzerHarness.frames(tone, sampleRate: 48_000, fps: 60, accents: AccentSettings())
        #expect(accented.flatMap(\.onsets).isEmpty, "\(frequency) Hz: \(accented.flatMap(\.onsets))")
        #expect(accented.allSatisfy { $0.accent == .zero }, "\(frequency) Hz")
        let headroom = Float(1 - AccentSettings().headroom)
        for (with, without) in zip(accented, plain) where with.time >= 1.5 {
            #expect(abs(with.levels[band] - without.levels[band] * headroom) < 1e-4, "\(frequency) Hz at \(with.time) s")
        }
    }

    /// Half a second of silence, then a sine at half of full scale for a second.
    static func switchedOn(_ frequency: Double) -> [Float] {
        Signals.silence(seconds: 0.5, sampleRate: 48_000)
            + Signals.sine(frequency: frequency, seconds: 1, sampleRate: 48_000, amplitude: 0.5)
    }
}
