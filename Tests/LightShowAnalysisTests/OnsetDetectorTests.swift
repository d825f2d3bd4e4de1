@testable import LightShowAnalysis
import LightShowCore
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The onset detector on known signals: hits found on the hop they land on, sustained sounds give nothing.
@Suite struct OnsetDetectorTests {
    let rate = 48_000

    func onsets(
        _ samples: [Float], blockSize: Int = 1024, accents: AccentSettings = AccentSettings(), bands: BandsSettings = BandsSettings()
    ) -> [Onset] {
        let detector = OnsetDetector(sampleRate: rate, bands: bands, accents: accents, silenceThresholdDBFS: -60)
        var history = SampleHistory(capacity: detector.size)
        var found: [Onset] = []
        var start = 0
        samples.withUnsafeBufferPointer { all in
            // Pieces of `blockSize` or less, cut again where a hop ends, as `LevelAnalyzer` feeds it.
            while start < all.count {
                let end = min(all.count, start + blockSize, start + detector.samplesUntilHop)
                history.append(UnsafeBufferPointer(rebasing: all[start..<end]))
                detector.take(end - start, of: history, firstSample: Int64(start), into: &found)
                start = end
            }
        }
        return found
    }

    var hopSeconds: Double { Double(OnsetDetector(sampleRate: rate, bands: BandsSettings(), accents: AccentSettings(), silenceThresholdDBFS: -60).hop) / Double(rate) }

    @Test func aShortWindowOnAFineHop() {
        let detector = OnsetDetector(sampleRate: rate, bands: BandsSettings(), accents: AccentSettings(), silenceThresholdDBFS: -60)
        #expect(detector.size == 1024 && detector.shortSize == 256 && detector.hop == 128)
    }

    /// The end of the hop a sample at `time` falls in.
    func hopEnd(after time: Double) -> Double {
        let hop = hopSeconds
        return ((time / hop).rounded(.down) + 1) * hop
    }

    /// Every click gives one onset in each band, decided within one hop of the hop it lands in (a click in the
    /// newest few samples has almost no weight under the window yet, so the next hop decides it).
    func expectEveryClickWithinOneHop(bands: BandsSettings = BandsSettings()) {
        let times = [0.5003, 1.0, 1.7171, 2.3, 3.1234]
        let found = onsets(AccentSignals.clicks(at: times, seconds: 4), bands: bands)
        for band in Band.allCases {
            let mine = found.filter { $0.band == band }
            #expect(mine.count == times.count, "\(band): \(mine)")
            for (onset, time) in zip(mine, times) {
                #expect(onset.time > time && onset.time <= hopEnd(after: time) + hopSeconds + 1e-9, "\(band) at \(time): \(onset.time)")
                #expect(onset.strength > 0 && onset.strength <= 1)
            }
        }
    }

    /// The default bands: the long window at half the rate (mid reaches 4 kHz, under an eighth of 48 kHz).
    @Test func clicksAreFoundWithinOneHopInEveryBand() {
        expectEveryClickWithinOneHop()
    }

    /// A mid band reaching above an eighth of the rate (6 kHz here) is measured at the full rate, not at half the
    /// rate, whose filter would dim its top: its clicks are found as the default bands' are.
    @Test func aLongWindowBandAboveAnEighthOfTheRateIsFoundAtTheFullRate() {
        var wide = BandsSettings()
        wide.mid.range = FrequencyRange(lower: 250, upper: 9000)
        wide.treble.range = FrequencyRange(lower: 9000, upper: 16000)
        expectEveryClickWithinOneHop(bands: wide)
    }

    /// Long-window bands under a sixteenth of the rate (cava's 3-bar split, 186 and 1723 Hz) are measured at a
    /// quarter of the rate, and the short window in a transform of its own length: clicks are found as before.
    @Test func longWindowBandsUnderASixteenthOfTheRateAreFoundAtAQuarterOfTheRate() {
        var narrow = BandsSettings()
        narrow.bass.range = FrequencyRange(lower: 20, upper: 186)
        narrow.mid.range = FrequencyRange(lower: 186, upper: 1723)
        narrow.treble.range = FrequencyRange(lower: 1723, upper: 20000)
        expectEveryClickWithinOneHop(bands: narrow)
    }

    /// Kicks over a held 55 Hz bass line: one bass onset each, within one hop of the hop the kick starts in.
    @Test func kicksOverAHeldBassAreFoundWithinAHop() {
        let times = [0.5003, 1.0, 1.7171, 2.3, 3.1234]
        let found = onsets(AccentSignals.kicks(at: times, seconds: 4)).filter { $0.band == .bass && $0.time > 0.1 }
        #expect(found.count == times.count, "\(found)")
        for (onset, time) in zip(found, times) {
            #expect(onset.time > time && onset.time <= hopEnd(after: time) + hopSeconds + 1e-9, "kick at \(time): \(onset.time)")
        }
    }

    @Test(arguments: [0.01, 0.03])
    func aHeldChordWithVibratoGivesNoOnset(depth: Double) {
        let chord = AccentSignals.vibratoTone(frequencies: [110, 220, 277.18, 329.63], depth: depth, rate: 6, seconds: 4, fadeIn: 1)
        #expect(onsets(chord).isEmpty)
        let high = AccentSignals.vibratoTone(frequencies: [1000, 2500, 5000], depth: depth, rate: 6, seconds: 4, fadeIn: 1)
        #expect(onsets(high).isEmpty)
    }

    @Test(arguments: [110.0, 440, 5000])
    func aTremoloGivesNoOnset(frequency: Double) {
        for rate in [4.0, 6, 8] {
            let tone = AccentSignals.tremoloTone(frequency: frequency, depth: 0.8, rate: rate, seconds: 4, fadeIn: 1)
            #expect(onsets(tone).isEmpty, "\(frequency) Hz at \(rate) Hz")
        }
    }

    @Test func aSlowSwellGivesNoOnset() {
        let swell = AccentSignals.tremoloTone(frequency: 220, depth: 0, rate: 1, seconds: 4, fadeIn: 4)
        #expect(onsets(swell).isEmpty)
    }

    /// Clicks 20 ms apart: one onset per 50 ms at most in each band; 60 ms apart: every one.
    @Test func theMinimumGapHolds() {
        let close = stride(from: 0.5, to: 1.5, by: 0.02).map { $0 }
        for band in Band.allCases {
            let times = onsets(AccentSignals.clicks(at: close, seconds: 2)).filter { $0.band == band }.map(\.time)
            #expect(!times.isEmpty)
            for (earlier, later) in zip(times, times.dropFirst()) { #expect(later - earlier >= 0.05 - 1e-9) }
        }
        let apart = stride(from: 0.5, to: 1.5, by: 0.06).map { $0 }
        let treble = onsets(AccentSignals.clicks(at: apart, seconds: 2)).filter { $0.band == .treble }
        #expect(treble.count == apart.count)
    }

    @Test func clicksUnderTheSilenceThresholdGiveNoOnset() {
        // One sample of 0.01 is −70 dBFS over the 1024-point window, under the −60 dBFS gate.
        var quiet = [Float](repeating: 0, count: 2 * rate)
        for time in [0.5, 1.0, 1.5] { quiet[Int(time * Double(rate))] = 0.01 }
        #expect(onsets(quiet).isEmpty)
    }

    /// The detector runs on its own hop: how the audio is cut into blocks changes nothing.
    @Test func blockSizesDoNotMatter() {
        let signal = AccentSignals.pattern(seconds: 3).samples
        let reference = onsets(signal, blockSize: 1024)
        #expect(!reference.isEmpty)
        for size in [1, 100, 441, 4096] { #expect(onsets(signal, blockSize: size) == reference) }
    }

    @Test func higherSensitivityFindsMoreAndLowerFewer() {
        let signal = AccentSignals.pattern(seconds: 3).samples
        var keen = AccentSettings(), dull = AccentSettings()
        for band in Band.allCases {
            keen[band].sensitivity *= 3
            dull[band].sensitivity *= 0.2
        }
        let normal = onsets(signal).count
        #expect(onsets(signal, accents: keen).count > normal)
        #expect(onsets(signal, accents: dull).count < normal)
    }

    /// The drum pattern: each hit found in its band within one frame at 60 fps.
    @Test func aDrumPatternIsFoundBandByBand() {
        let pattern = AccentSignals.pattern(seconds: 4)
        let found = onsets(pattern.samples)
        for (band, times) in [(Band.bass, pattern.kicks), (.mid, pattern.snares), (.treble, pattern.hats)] {
            let mine = found.filter { $0.band == band }.map(\.time)
            for time in times {
                #expect(mine.contains { $0 > time && $0 <= time + 1.0 / 60 }, "\(band) hit at \(time): \(mine)")
            }
        }
    }

    /// A snare struck on a kick: the kick's start splatters into the mid band, which is no onset of its own, yet the
    /// snare under it is found once the kick's first milliseconds have passed, within a 60 fps frame of both.
    @Test func aSnareStruckWithAKickIsFound() {
        let times = [0.5, 1.25, 2.0, 2.75]
        var samples = AccentSignals.kicks(at: times, seconds: 3.2, bed: 0, sampleRate: rate)
        let hiss = Signals.noise(dbfs: -10, seconds: 0.15, sampleRate: rate)
        for time in times {
            let start = Int(time * Double(rate))
            for (n, noise) in hiss.enumerated() {
                let t = Double(n) / Double(rate)
                let tone = Float(0.3 * sin(2 * Double.pi * 1000 * t))
                let decay = Float(exp(-t / 0.05))
                samples[start + n] += (noise + tone) * decay
            }
        }
        let found = onsets(samples)
        for band in [Band.bass, .mid] {
            let mine = found.filter { $0.band == band }.map(\.time)
            for time in times {
                #expect(mine.contains { $0 > time && $0 <= time + 1.0 / 60 }, "\(band) hit at \(time): \(mine)")
            }
        }
    }
}
