import LightShowCore

/// `[bands.bass]`, `[bands.mid]`, `[bands.treble]`: lower, upper, color.
/// Values off the 20…20000 Hz axis are errors here (the command line clamps instead), and so is lower ≥ upper.
enum BandsSection: ConfigSection {
    static let name = "bands"

    static func read(_ section: SectionReader, into configuration: inout Configuration) {
        for band in Band.allCases {
            section.section(band.rawValue) { entry in
                read(entry, into: &configuration.bands[band])
            }
        }
    }

    /// Where a band's edges may lie.
    static let axis = FrequencyRange.axisMinimum...FrequencyRange.axisMaximum

    /// Why `lower` and `upper` make no band, or nil when they do.
    static func crossed(lower: Double, upper: Double) -> String? {
        lower < upper ? nil : "lower \(lower.compact) must be below upper \(upper.compact)"
    }

    private static func read(_ section: SectionReader, into entry: inout BandsSettings.Entry) {
        let lower = section.number("lower", in: axis, limits: "the axis")
        let upper = section.number("upper", in: axis, limits: "the axis")
        if let color = section.color("color") { entry.color = color }
        let newLower = lower ?? entry.range.lower
        let newUpper = upper ?? entry.range.upper
        // Only judge the pair when the file set one of them and both are valid on their own.
        let lowerValid = lower != nil || !section.contains("lower")
        let upperValid = upper != nil || !section.contains("upper")
        guard lower != nil || upper != nil, lowerValid, upperValid else { return }
        if let crossed = crossed(lower: newLower, upper: newUpper) {
            section.error(nil, crossed)
            return
        }
        entry.range = FrequencyRange(lower: newLower, upper: newUpper)
    }
}
