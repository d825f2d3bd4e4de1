/// `[bands.bass]`, `[bands.mid]`, `[bands.treble]`: each band's range and colour.
public struct BandsSettings: PerBand, Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public var range: FrequencyRange
        public var color: RGBColor

        public init(range: FrequencyRange, color: RGBColor) {
            self.range = range
            self.color = color
        }
    }

    public var bass = Entry(range: .defaultBass, color: .defaultColor(for: .bass))
    public var mid = Entry(range: .defaultMid, color: .defaultColor(for: .mid))
    public var treble = Entry(range: .defaultTreble, color: .defaultColor(for: .treble))

    public init() {}
}
