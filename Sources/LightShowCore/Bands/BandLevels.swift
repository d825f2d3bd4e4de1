/// Brightness (alpha) of each light, 0…1.
public struct BandLevels: PerBand, Equatable, Sendable, Hashable {
    public var bass: Float
    public var mid: Float
    public var treble: Float

    public init(bass: Float = 0, mid: Float = 0, treble: Float = 0) {
        self.bass = bass
        self.mid = mid
        self.treble = treble
    }

    public static let zero = BandLevels()

    /// Each level multiplied by `factor` (used for dimming and fades).
    public func scaled(by factor: Float) -> BandLevels {
        BandLevels(bass: bass * factor, mid: mid * factor, treble: treble * factor)
    }
}
