/// A musical onset the analysis decided on in one band: a hit, a plucked note, a new chord.
public struct Onset: Sendable, Equatable, Hashable {
    /// Audio time in seconds from the start of the input: the end of the detector hop that decided it.
    public var time: Double
    public var band: Band
    /// How clear the onset is, 0…1 (about 0.5 for a hit just over the threshold, near 1 for a hit out of quiet).
    public var strength: Float

    public init(time: Double, band: Band, strength: Float) {
        self.time = time
        self.band = band
        self.strength = strength
    }
}
