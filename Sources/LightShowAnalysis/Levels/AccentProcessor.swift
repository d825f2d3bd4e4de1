#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import LightShowCore

/// Accents on top of the envelope, per band: an onset lifts its light at once toward full, by its strength, but no
/// higher than the band's sound then (its level before the envelope's attack), unless that is less than `minimumLift`
/// or `firstLiftShare` of the strength's lift; and then follows the band's own sound: the lift holds while the sound
/// still rises (at least `hold`), falls as the sound falls (by the sound's level over its peak since the onset), and
/// over a sound that holds it falls back exponentially over the band's decay. A fixed fall did not follow a kick that
/// rings for 300 ms or a chord that stops after 80: on `accents.sh`'s songs each light then tracked its band's envelope
/// less well with accents than without. Lifted toward full whatever the sound's level, a soft hit lit as high as a loud
/// one: Spearman r at zero lag against the band's 20 ms RMS was 0.83 / 0.88 / 0.91 with accents, 0.85 / 0.89 / 0.92
/// without; no higher than the sound, 0.85 / 0.89 / 0.93 (0.85 / 0.88 / 0.93 allowing 0.1 over it). Falling from the
/// onset at once cost up to a frame of decay before the light was ever seen: at 60 fps a treble accent (60 ms) lost up
/// to a quarter of its peak, and on a light already at 0.7 that ate most of the rise (`accents.sh`: 16% of the drum
/// hits detected in time rose by less than 0.1). The hold depends on time alone, so every frame rate shows the same
/// accent at the same moment. The light shows the larger of the envelope (scaled below full by the headroom, so an
/// onset always has room to rise) and the accent, never their sum, so nothing clips.
/// Full-contrast lifts (`FlashContrast`: by the light's colour over the background) are limited per light
/// (`FlashLimiter`); past the limit an onset still lifts the light, by the most that is not a flash.
/// Pure numbers, no I/O; allocation-free per frame.
public struct AccentProcessor: Sendable {
    /// The least an onset lifts its light (or up to full, if that is closer) while its band's strength is above 0:
    /// a rise under a tenth of full scale is hard to see. Measured with `accents.sh`: weak snares found under
    /// chords lifted a light at 0.8 by 0.05; with this floor every snare found rose visibly (lit 81% → 100%).
    public static let minimumLift = 0.12
    /// How long an accent stays at its peak before it falls: one frame at 60 fps, so the first frame after an onset
    /// shows all of it.
    public static let hold = 0.017
    /// The longest a sound still rising holds its accent: a kick or a chord peaks within tens of milliseconds,
    /// while a level creeping up as the gain recovers would otherwise hold it for ever.
    public static let longestHold = 0.1
    /// The least an accent starts at, as a share of its lift by the onset's strength. The band's sound lags the
    /// music by most of the level's window, so an accent no higher than the sound at the onset reached half its rise
    /// late (`accents.sh` live: kicks' median delay 12 → 20 ms, 90th percentile 32 → 40 ms). Offline, bass r at
    /// zero lag with accents against the band's 20 ms RMS by this share: 0.850 at 0, 0.851 at 0.65 and 0.7, 0.848 at
    /// 0.75, 0.827 at 1 (0.848 without accents); kicks reached half their rise as early as at 1 from 0.65 on.
    public static let firstLiftShare = 0.7

    public private(set) var settings: AccentSettings
    /// Per band: the light's colour over the background, which decides what is a flash.
    public private(set) var contrasts: [FlashContrast]
    /// Per band (lanes in `Band.allCases` order, the fourth unused): the accent's value at its onset, the onset's
    /// time, and the decay's time constant in seconds. Kept inline, not in arrays: live, every frame finds this
    /// state cold, and three arrays were three more places to fetch it from.
    private var peaks = SIMD4<Double>()
    /// Per band: the highest the accent may rise to while its sound still rises (the lift by the onset's strength).
    private var ceilings = SIMD4<Double>()
    private var onsetTimes = SIMD4<Double>()
    /// Per band: the sound's highest level since the onset, when the hold ends (when the sound stopped rising, at
    /// least `hold` after the onset), and the sound now over that peak.
    private var soundPeaks = SIMD4<Double>()
    private var holdEnds = SIMD4<Double>()
    private var follows = SIMD4<Double>(repeating: 1)
    private let decaySeconds: SIMD4<Double>
    private var limiters: [FlashLimiter]

    /// - Parameter contrasts: each band's light over the background, in `Band.allCases` order (the default
    ///   colours and background when nil).
    public init(settings: AccentSettings, contrasts: [FlashContrast]? = nil) {
        self.settings = settings
        let given = contrasts ?? []
        self.contrasts = given.count == Band.allCases.count
            ? given : FlashContrast.perBand(BandsSettings(), background: BackgroundSettings())
        var decaySeconds = SIMD4<Double>()
        for (index, band) in Band.allCases.enumerated() {
            decaySeconds[index] = max(0, settings[band].decayMilliseconds) / 1000
        }
        self.decaySeconds = decaySeconds
        limiters = Band.allCases.map { _ in FlashLimiter(maximum: settings.maxFlashesPerSecond) }
    }

    /// One frame at audio time `time`.
    /// - Parameters:
    ///   - envelope: each band's envelope level this frame.
    ///   - onsets: the onsets decided since the previous frame, in time order, none after `time`.
    ///   - gateOpen: false while the silence gate is closed: no accents then.
    ///   - sound: each band's level now before its envelope's attack and release (`LevelProcessor.targets`),
    ///     which the accents follow; nil holds each for `hold` and lets it fall over the decay.
    /// - Returns: each band's envelope as shown (below full by the headroom), its accent, and the light's level
    ///   (the larger of the two).
    public mutating func process(
        envelope: BandLevels, onsets: [Onset], time: Double, gateOpen: Bool, sound: BandLevels? = nil
    ) -> (envelope: BandLevels, accent: BandLevels, levels: BandLevels) {
        let shown = envelope.scaled(by: Float(1 - min(1, max(0, settings.headroom))))
        guard gateOpen else {
            peaks = .zero
            return (shown, .zero, shown)
        }
        if !onsets.isEmpty { lift(on: onsets, shown: shown, sound: sound) }
        // Below a thousandth the light is invisible; snapping lets the accent end at exactly 0.
        func accent(_ index: Int) -> Float {
            if let sound { follow(index, sound: Double(sound[Band.allCases[index]]), at: time) }
            let value = value(index, at: time)
            return value < 0.001 ? 0 : Float(value)
        }
        let accent = BandLevels(bass: accent(0), mid: accent(1), treble: accent(2))
        let levels = BandLevels(
            bass: max(shown.bass, accent.bass), mid: max(shown.mid, accent.mid), treble: max(shown.treble, accent.treble)
        )
        return (shown, accent, levels)
    }

    /// The onsets' lifts. Kept out of `process`, whose every-frame path stays short: most frames have no onset.
    @inline(never)
    private mutating func lift(on onsets: [Onset], shown: BandLevels, sound: BandLevels?) {
        for onset in onsets {
            let index = Self.index(of: onset.band)
            let entry = settings[onset.band]
            // The light's level when the onset lands: the shown envelope now, or the last accent's fall if higher.
            let base = max(Double(shown[onset.band]), value(index, at: onset.time))
            let bandStrength = min(1, max(0, entry.strength))
            // Strength 0 turns the band's accents off: not even the level at the onset is held.
            guard bandStrength > 0 else { continue }
            let scaled = Double(min(1, max(0, onset.strength))) * bandStrength * (1 - base)
            var rise = max(scaled, min(Self.minimumLift, 1 - base))
            if contrasts[index].isFlash(from: base, to: base + rise), !limiters[index].admit(at: onset.time) {
                rise = contrasts[index].largestLowContrastLift(from: base, upTo: rise)
            }
            peaks[index] = min(1, base + rise)
            ceilings[index] = peaks[index]
            // No higher than the band's sound now, unless that is less than the least visible lift or the first
            // share of the lift; it rises with the sound while that still rises (`follow`).
            if let sound {
                let least = max(base + min(Self.minimumLift, 1 - base), Self.firstLiftShare * peaks[index])
                peaks[index] = min(peaks[index], max(Double(sound[onset.band]), least))
            }
            onsetTimes[index] = onset.time
            soundPeaks[index] = sound.map { Double($0[onset.band]) } ?? 0
            holdEnds[index] = onset.time + Self.hold
            follows[index] = 1
        }
    }

    /// New band colours or background (a reload or a scene change); the accents in flight carry on.
    public mutating func setContrasts(_ contrasts: [FlashContrast]) {
        guard contrasts.count == Band.allCases.count else { return }
        self.contrasts = contrasts
    }

    /// Band `index`'s sound now: while it still rises (within `longestHold` of the onset) the hold lasts and the
    /// accent rises with it, up to its lift; once it falls, the accent follows it down.
    private mutating func follow(_ index: Int, sound: Double, at time: Double) {
        guard peaks[index] > 0 else { return }
        if sound > soundPeaks[index], time - onsetTimes[index] <= Self.longestHold {
            soundPeaks[index] = sound
            holdEnds[index] = max(holdEnds[index], time)
            peaks[index] = min(ceilings[index], max(peaks[index], sound))
        }
        follows[index] = soundPeaks[index] > 0 ? min(1, max(0, sound / soundPeaks[index])) : 1
    }

    /// The accent of band `index` at `time`.
    private func value(_ index: Int, at time: Double) -> Double {
        guard peaks[index] > 0 else { return 0 }
        let tau = decaySeconds[index]
        let elapsed = max(0, time - holdEnds[index])
        guard tau > 0 else { return elapsed > 0 ? 0 : peaks[index] * follows[index] }
        return peaks[index] * follows[index] * exp(-elapsed / tau)
    }

    private static func index(of band: Band) -> Int {
        switch band {
        case .bass: 0
        case .mid: 1
        case .treble: 2
        }
    }
}

