public import LightShowCore

/// `set-band`: a band's edges edited by number (a viewer's tuning panel), checked exactly as `[bands.*]` in a
/// config file is, each error naming the key (`bands.bass.lower: 5 is below the axis minimum 20`).
public enum BandRangeEdit {
    /// Moves `band`'s edges to `lower` and `upper` (nil keeps an edge) in `bands`, or returns the problems and
    /// leaves `bands` as it was.
    public static func apply(
        _ band: Band, lower: Double?, upper: Double?, to bands: inout BandsSettings
    ) -> [String] {
        var problems: [String] = []
        for (key, value) in [("lower", lower), ("upper", upper)] {
            guard let value else { continue }
            let keyPath = "bands.\(band.rawValue).\(key)"
            if !value.isFinite {
                problems.append("\(keyPath): expected a finite number, found \(value)")
            } else if let outside = SectionReader.outside(value, BandsSection.axis, limits: "the axis") {
                problems.append("\(keyPath): \(outside)")
            }
        }
        guard problems.isEmpty else { return problems }
        let current = bands[band].range
        let (newLower, newUpper) = (lower ?? current.lower, upper ?? current.upper)
        if let crossed = BandsSection.crossed(lower: newLower, upper: newUpper) {
            return ["bands.\(band.rawValue): \(crossed)"]
        }
        bands[band].range = FrequencyRange(lower: newLower, upper: newUpper)
        return []
    }
}
