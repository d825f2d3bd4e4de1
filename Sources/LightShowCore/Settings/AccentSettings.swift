/// `[accents]`: onsets lighting their band's light at once (see the README's Accents section).
public struct AccentSettings: PerBand, Equatable, Sendable {
    /// One band's `[accents.bass]`, `[accents.mid]` or `[accents.treble]`.
    public struct Entry: Equatable, Sendable {
        /// How far an onset of full strength lifts the light toward full, 0…1; any onset lifts it at least
        /// `AccentProcessor.minimumLift` unless this is 0.
        public var strength: Double = 1
        /// Divides the detector's threshold: 2 finds onsets half as clear, 0.5 only twice as clear ones.
        public var sensitivity: Double = 1
        /// Time constant of the accent's fall, milliseconds.
        public var decayMilliseconds: Double

        public init(decayMilliseconds: Double, strength: Double = 1, sensitivity: Double = 1) {
            self.decayMilliseconds = decayMilliseconds
            self.strength = strength
            self.sensitivity = sensitivity
        }
    }

    /// Off: the lights follow the envelope alone, exactly as without accents (no onset detection runs).
    public var enabled = true
    /// Full-contrast flashes per light in any second (WCAG 2.3.1 allows 3); past it an accent rises only as far as
    /// keeps its change in relative luminance under WCAG's 10% (`FlashContrast`).
    public var maxFlashesPerSecond = 3
    /// The top of the scale the envelope leaves to accents: the light shows the envelope times (1 − headroom), so
    /// an onset on a loud passage still has room to rise visibly; 0 is the full envelope. Measured with
    /// `accents.sh`: drum hits lit within 50 ms 57% with none, 71% at 0.15 (kicks 70 → 85%), 77% at 0.25, but at
    /// 0.25 the mid light's envelope tracking fell below that without accents (Spearman r 0.78 against 0.79);
    /// 0.15 keeps all three at or above it and a steady tone's light at 0.85.
    public var headroom = 0.15
    // Treble falls fastest: hats come quickest, and a long tail would merge them into a steady glow.
    // Measured with `accents.sh`. Sensitivity: mid 4 finds snares under chords and bass harmonics (onset F 0.54 →
    // 0.77, recall 0.43 → 0.87); treble 2 on its short window finds every hat (F 0.89 → 0.95). Neither gave an
    // onset on the held, vibrato, tremolo or swelling tones; bass at 1 found one in the tremolo organ (its four
    // bins under 186 Hz rise by 2 dB in a tremolo cycle), at 0.9 none, with the same kicks found and F 0.84 → 0.86;
    // bass above 1 found 5 to 47 in the sustained tones. Strength: with
    // every hat lifting toward full, the treble light's envelope tracking fell below that without accents
    // (Spearman r 0.85 against 0.86); at 0.6 it is 0.87 and 99% of hats still light, and mid at 0.7 keeps its r.
    public var bass = Entry(decayMilliseconds: 150, sensitivity: 0.9)
    public var mid = Entry(decayMilliseconds: 120, strength: 0.7, sensitivity: 4)
    public var treble = Entry(decayMilliseconds: 60, strength: 0.6, sensitivity: 2)

    public init() {}
}
