import LightShowCore

/// `[accents]`: enabled, max_flashes_per_second, headroom; `[accents.bass]`, `[accents.mid]`, `[accents.treble]`: strength,
/// sensitivity, decay (ms).
enum AccentsSection: ConfigSection {
    static let name = "accents"

    static func read(_ section: SectionReader, into configuration: inout Configuration) {
        section.boolean("enabled").assign(to: &configuration.accents.enabled)
        section.integer("max_flashes_per_second", in: 0...30).assign(to: &configuration.accents.maxFlashesPerSecond)
        section.number("headroom", in: 0...0.5).assign(to: &configuration.accents.headroom)
        for band in Band.allCases {
            section.section(band.rawValue) { entry in
                entry.number("strength", in: 0...1).assign(to: &configuration.accents[band].strength)
                entry.number("sensitivity", in: 0.1...10).assign(to: &configuration.accents[band].sensitivity)
                entry.number("decay", in: 1...5000).assign(to: &configuration.accents[band].decayMilliseconds)
            }
        }
    }
}
