import Foundation
import LightShowAnalysis
import LightShowCore
import Testing

@Suite struct AccentProcessorTests {
    func onset(_ time: Double, _ band: Band = .bass, _ strength: Float = 1) -> Onset {
        Onset(time: time, band: band, strength: strength)
    }

    @Test func anOnsetLiftsTheLightAtOnceAndTheLevelIsTheLargerNeverTheSum() {
        var accents = AccentProcessor(settings: AccentSettings())
        let envelope = BandLevels(bass: 0.7, mid: 0.3, treble: 0)
        let lit = accents.process(envelope: envelope, onsets: [onset(1.0)], time: 1.0, gateOpen: true)
        #expect(lit.accent.bass == 1)
        #expect(lit.levels.bass == 1)
        // The envelope is shown below full by the headroom (0.15 by default).
        #expect(abs(lit.levels.mid - 0.3 * 0.85) < 1e-6 && lit.accent.mid == 0)
        // One hold and one decay later (150 ms for bass) the accent is at 1/e; the level is the larger of the two.
        let later = accents.process(
            envelope: BandLevels(bass: 0.2), onsets: [], time: 1.15 + AccentProcessor.hold, gateOpen: true
        )
        #expect(abs(Double(later.accent.bass) - exp(-1)) < 1e-4)
        #expect(later.levels.bass == later.accent.bass)
        let envelopeAbove = accents.process(envelope: BandLevels(bass: 0.9), onsets: [], time: 1.2, gateOpen: true)
        #expect(abs(envelopeAbove.levels.bass - 0.9 * 0.85) < 1e-6)
    }

    /// An onset between two frames at 60 fps is shown at its full peak on the next frame: the light must be seen to
    /// rise however early in the frame the onset lands.
    @Test func theFirstFrameAfterAnOnsetShowsItsWholeRise() {
        var settings = AccentSettings()
        settings.treble.strength = 1
        var accents = AccentProcessor(settings: settings)
        let envelope = BandLevels(bass: 0.7, mid: 0.7, treble: 0.7)
        let frame = 1.0 / 60
        let before = accents.process(envelope: envelope, onsets: [], time: 1, gateOpen: true).levels.treble
        // A treble onset (60 ms decay) at strength 0.5 just after the frame at 1 s, shown 15.7 ms later.
        let shown = accents.process(
            envelope: envelope, onsets: [onset(1.001, .treble, 0.5)], time: 1 + frame, gateOpen: true
        ).levels.treble
        let peak = Double(before) + 0.5 * (1 - Double(before))
        #expect(abs(Double(shown) - peak) < 1e-5)
        // Held for `hold` after the onset, then falling over the decay.
        let next = accents.process(envelope: envelope, onsets: [], time: 1 + 2 * frame, gateOpen: true).levels.treble
        let fallen = 1 + 2 * frame - 1.001 - AccentProcessor.hold
        #expect(abs(Double(next) - peak * exp(-fallen / 0.06)) < 1e-5)
    }

    /// A light held at full by a loud passage still rises by the headroom on an onset; with no headroom it
    /// can't rise at all.
    @Test(arguments: [0.15, 0.3, 0])
    func theHeadroomLeavesAnOnsetRoomToRise(headroom: Double) {
        var settings = AccentSettings()
        settings.headroom = headroom
        var accents = AccentProcessor(settings: settings)
        let loud = BandLevels(bass: 1, mid: 1, treble: 1)
        let before = accents.process(envelope: loud, onsets: [], time: 0.5, gateOpen: true).levels
        #expect(abs(Double(before.bass) - (1 - headroom)) < 1e-6)
        let lit = accents.process(envelope: loud, onsets: [onset(0.51)], time: 0.51, gateOpen: true).levels
        #expect(lit.bass == 1)
        #expect(abs(Double(lit.bass - before.bass) - headroom) < 1e-6)
        #expect(lit.mid == before.mid)
    }

    @Test func theRiseIsScaledByTheOnsetsAndTheBandsStrength() {
        var settings = AccentSettings()
        settings.mid.strength = 0.5
        settings.headroom = 0
        var accents = AccentProcessor(settings: settings)
        let result = accents.process(
            envelope: BandLevels(bass: 0.2, mid: 0.2), onsets: [onset(0.5, .bass, 0.5), onset(0.5, .mid, 1)], time: 0.5,
            gateOpen: true
        )
        // From 0.2 toward 1: half the way for each.
        #expect(abs(result.accent.bass - 0.6) < 1e-6)
        #expect(abs(result.accent.mid - 0.6) < 1e-6)
    }

    /// A weak onset still lifts its light visibly: by `minimumLift`, or to full when that is closer; a band at
    /// strength 0 has no accents at all.
    @Test func aWeakOnsetStillLiftsTheLightVisibly() {
        var settings = AccentSettings()
        settings.headroom = 0
        settings.treble.strength = 0
        var accents = AccentProcessor(settings: settings)
        let lit = accents.process(
            envelope: BandLevels(bass: 0.5, mid: 0.95, treble: 0.5),
            onsets: [onset(1, .bass, 0.05), onset(1, .mid, 0.05), onset(1, .treble, 1)], time: 1, gateOpen: true
        )
        #expect(abs(Double(lit.levels.bass) - (0.5 + AccentProcessor.minimumLift)) < 1e-6)
        #expect(lit.levels.mid == 1)
        #expect(lit.accent.treble == 0 && lit.levels.treble == 0.5)
        // A strong onset lifts by its strength as before: 0.5 of the way from 0.5.
        let strong = accents.process(envelope: BandLevels(bass: 0.2), onsets: [onset(2, .bass, 0.5)], time: 2, gateOpen: true)
        #expect(abs(strong.accent.bass - 0.6) < 1e-6)
    }

    @Test func trebleFallsFasterThanBass() {
        var accents = AccentProcessor(settings: AccentSettings())
        _ = accents.process(envelope: .zero, onsets: [onset(0, .bass), onset(0, .treble)], time: 0, gateOpen: true)
        let later = accents.process(envelope: .zero, onsets: [], time: 0.1, gateOpen: true)
        #expect(later.accent.treble < 0.25 && later.accent.bass > 0.5)
    }

    @Test func aClosedGateShowsNoAccent() {
        var accents = AccentProcessor(settings: AccentSettings())
        _ = accents.process(envelope: .zero, onsets: [onset(0)], time: 0, gateOpen: true)
        let closed = accents.process(envelope: .zero, onsets: [onset(0.01)], time: 0.016, gateOpen: false)
        #expect(closed.accent == .zero && closed.levels == .zero)
        let reopened = accents.process(envelope: .zero, onsets: [], time: 0.033, gateOpen: true)
        #expect(reopened.accent == .zero)
    }

    /// Hats at 8 a second for 3 s: at most 3 full-contrast flashes in any second, exactly 3 in each whole second,
    /// and every other hat still lifts the light, by the most that stays under WCAG's flash threshold for the
    /// default blue over the default background (0.63 of full from dark), far more than a tenth.
    @Test(arguments: [3, 1, 5])
    func fullContrastFlashesStayAtTheLimit(limit: Int) {
        var settings = AccentSettings()
        settings.maxFlashesPerSecond = limit
        settings.treble.strength = 1
        var accents = AccentProcessor(settings: settings)
        let blue = accents.contrasts[2]
        var flashes: [Double] = []
        var lowContrast = 0
        var time = 0.0
        for hat in 0..<24 {
            let onsetTime = Double(hat) * 0.125
            // Frames at 60 fps up to the hat; the light has fallen back to dark by then (treble decays in 60 ms).
            while time < onsetTime - 1e-9 {
                _ = accents.process(envelope: .zero, onsets: [], time: time, gateOpen: true)
                time += 1.0 / 60
            }
            let before = Double(accents.process(envelope: .zero, onsets: [], time: onsetTime, gateOpen: true).accent.treble)
            let lit = accents.process(envelope: .zero, onsets: [onset(onsetTime, .treble)], time: onsetTime, gateOpen: true)
            let after = Double(lit.accent.treble)
            if blue.isFlash(from: before, to: after) {
                #expect(after == 1)
                flashes.append(onsetTime)
            } else {
                #expect(abs(after - before - blue.largestLowContrastLift(from: before, upTo: 1)) < 1e-6)
                #expect(after - before > 0.5)
                lowContrast += 1
            }
        }
        for (index, flash) in flashes.enumerated() {
            let inWindow = flashes[index...].prefix { $0 < flash + 1 - 1e-9 }.count
            #expect(inWindow <= limit)
        }
        #expect(flashes.count == 3 * limit)
        #expect(lowContrast == 24 - 3 * limit)
    }

    @Test func noFlashesAtAllWhenTheLimitIsZero() {
        var settings = AccentSettings()
        settings.maxFlashesPerSecond = 0
        settings.mid.strength = 1
        var accents = AccentProcessor(settings: settings)
        let lit = accents.process(envelope: .zero, onsets: [onset(0, .mid)], time: 0, gateOpen: true)
        let green = accents.contrasts[1]
        #expect(!green.isFlash(from: 0, to: Double(lit.accent.mid)))
        #expect(abs(Double(lit.accent.mid) - green.largestLowContrastLift(from: 0, upTo: 1)) < 1e-6)
    }

    /// A lift too small to be a flash is never counted: with a limit of 1, weak onsets don't use it up.
    @Test func lowContrastLiftsDontCountAgainstTheLimit() {
        var settings = AccentSettings()
        settings.maxFlashesPerSecond = 1
        settings.treble.strength = 1
        var accents = AccentProcessor(settings: settings)
        // Strength 0.3 from dark: blue at 0.3 alpha changes luminance by 0.03.
        _ = accents.process(envelope: .zero, onsets: [onset(0, .treble, 0.3)], time: 0, gateOpen: true)
        _ = accents.process(envelope: .zero, onsets: [onset(0.2, .treble, 0.3)], time: 0.2, gateOpen: true)
        let full = accents.process(envelope: .zero, onsets: [onset(0.5, .treble)], time: 0.5, gateOpen: true)
        #expect(full.accent.treble == 1)
    }

    /// The light's colour decides: a white light over black flashes from a smaller lift than the default blue.
    @Test func theBandsColourAndTheBackgroundDecideTheLowContrastLift() {
        var settings = AccentSettings()
        settings.maxFlashesPerSecond = 0
        settings.treble.strength = 1
        var bands = BandsSettings()
        bands.treble.color = .white
        var background = BackgroundSettings()
        background.from = .black
        background.to = .black
        var accents = AccentProcessor(settings: settings, contrasts: FlashContrast.perBand(bands, background: background))
        let lit = accents.process(envelope: .zero, onsets: [onset(0, .treble)], time: 0, gateOpen: true)
        // Luminance 0.1 of white over black is at sRGB 0.349.
        #expect(abs(Double(lit.accent.treble) - 0.349) < 2e-3)
        accents.setContrasts(FlashContrast.perBand(BandsSettings(), background: BackgroundSettings()))
        let blue = accents.process(envelope: .zero, onsets: [onset(1, .treble)], time: 1, gateOpen: true)
        #expect(abs(Double(blue.accent.treble) - 0.634) < 2e-3)
    }

    /// The accent is a function of the onsets and the time: frames at 30 and 60 fps agree where they meet.
    @Test func thirtyAndSixtyFramesPerSecondAgree() {
        let onsets = [onset(0.1013), onset(0.4021, .mid, 0.7), onset(0.4055, .treble, 0.4), onset(0.9, .bass, 0.8)]
        func run(fps: Double) -> [Int: BandLevels] {
            var accents = AccentProcessor(settings: AccentSettings())
            var result: [Int: BandLevels] = [:]
            var remaining = onsets[...]
            for index in 1...Int(1.2 * fps) {
                let time = Double(index) / fps
                let due = Array(remaining.prefix { $0.time <= time })
                remaining = remaining.dropFirst(due.count)
                result[index * 60 / Int(fps)] = accents.process(envelope: .zero, onsets: due, time: time, gateOpen: true).accent
            }
            return result
        }
        let thirty = run(fps: 30), sixty = run(fps: 60)
        for (index, levels) in thirty {
            let other = sixty[index]!
            for band in Band.allCases { #expect(abs(levels[band] - other[band]) < 1e-6) }
        }
    }

    /// Given the band's sound, an accent lifts the light to the sound's level (a soft hit lights less than a loud
    /// one), rises with it and holds while the sound still rises, then falls with it: a chord that stops takes its
    /// accent with it, whatever the decay.
    @Test func anAccentHoldsWhileItsSoundRisesAndFallsWithIt() {
        var accents = AccentProcessor(settings: AccentSettings())
        let envelope = BandLevels(bass: 0.1)
        let tau = 0.150
        let lit = accents.process(
            envelope: envelope, onsets: [onset(1.0)], time: 1.0, gateOpen: true, sound: BandLevels(bass: 0.3)
        )
        // The sound at 0.3 still lags the hit: the accent starts at its first share of the lift (to full).
        #expect(abs(Double(lit.accent.bass) - AccentProcessor.firstLiftShare) < 1e-6)
        // Still rising 40 ms on, past the fixed hold: the accent rises with it, no fall yet.
        let rising = accents.process(envelope: envelope, onsets: [], time: 1.04, gateOpen: true, sound: BandLevels(bass: 0.8))
        let peak = Double(rising.accent.bass)
        #expect(abs(peak - 0.8) < 1e-6)
        // Held steady: the decay runs from the sound's peak at 1.04 s.
        let held = accents.process(envelope: envelope, onsets: [], time: 1.06, gateOpen: true, sound: BandLevels(bass: 0.8))
        #expect(abs(Double(held.accent.bass) - peak * exp(-0.02 / tau)) < 1e-6)
        // Falling to half the peak: the accent falls by half as well.
        let falling = accents.process(envelope: envelope, onsets: [], time: 1.08, gateOpen: true, sound: BandLevels(bass: 0.4))
        #expect(abs(Double(falling.accent.bass) - 0.5 * peak * exp(-0.04 / tau)) < 1e-6)
        // The sound gone: so is the accent, 80 ms after the onset where a fixed fall would still show 0.7.
        let gone = accents.process(envelope: envelope, onsets: [], time: 1.1, gateOpen: true, sound: BandLevels(bass: 0))
        #expect(gone.accent.bass == 0)
        #expect(abs(gone.levels.bass - 0.1 * 0.85) < 1e-6)
    }

    /// A soft hit over a sound quieter than the least visible lift still lifts its light by that much.
    @Test func aSoftHitStillLiftsByTheLeastVisibleLift() {
        var accents = AccentProcessor(settings: AccentSettings())
        let lit = accents.process(
            envelope: BandLevels(bass: 0.5), onsets: [onset(1.0, .bass, 0.2)], time: 1.0, gateOpen: true,
            sound: BandLevels(bass: 0.2)
        )
        #expect(abs(Double(lit.accent.bass) - (0.5 * 0.85 + AccentProcessor.minimumLift)) < 1e-6)
    }

    /// The next onset rises from where the last accent has fallen to, following its sound as last shown.
    @Test func aSecondOnsetRisesFromTheAccentShown() {
        var settings = AccentSettings()
        settings.bass.strength = 0.5
        var accents = AccentProcessor(settings: settings)
        let envelope = BandLevels(bass: 0)
        _ = accents.process(envelope: envelope, onsets: [onset(1.0)], time: 1.0, gateOpen: true, sound: BandLevels(bass: 0.8))
        let shown = accents.process(envelope: envelope, onsets: [], time: 1.1, gateOpen: true, sound: BandLevels(bass: 0.4))
        // Half the sound's peak at 1.1 s, and 10 ms more of the bass decay (150 ms) by the next onset.
        #expect(shown.accent.bass > 0)
        let base = Double(shown.accent.bass) * exp(-0.01 / 0.150)
        let next = accents.process(
            envelope: envelope, onsets: [onset(1.11)], time: 1.11, gateOpen: true, sound: BandLevels(bass: 0.8)
        )
        #expect(abs(Double(next.accent.bass) - (base + 0.5 * (1 - base))) < 1e-6)
    }
}

@Suite struct FrameDelayTests {
    @Test func eachReaderSeesTheNewestValueItsDelayOld() {
        var line = FrameDelay<Int>()
        for value in 0..<10 { line.push(value, at: UInt64(value) * 100) }
        #expect(line.value(delayedBy: 0, at: 950)?.value == 9)
        #expect(line.value(delayedBy: 300, at: 950)?.value == 6)
        #expect(line.value(delayedBy: 300, at: 950)?.arrival == 600)
        #expect(line.value(delayedBy: 2000, at: 950) == nil)
        #expect(line.nextDue(delayedBy: 300, at: 950) == 1000)
        #expect(line.nextDue(delayedBy: 0, at: 950) == nil)
        line.discard(beyond: 300, at: 950)
        #expect(line.value(delayedBy: 300, at: 950)?.value == 6)
        #expect(line.takeDue(delayedBy: 300, at: 1150) == [6, 7, 8])
        #expect(line.takeDue(delayedBy: 300, at: 1150) == [])
        #expect(line.takeDue(delayedBy: 0, at: 1150) == [9])
        #expect(line.isEmpty)
    }
}
