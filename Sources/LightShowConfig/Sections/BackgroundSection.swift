import LightShowCore

/// `[background]`: from, to, angle.
enum BackgroundSection: ConfigSection {
    static let name = "background"

    static func read(_ section: SectionReader, into configuration: inout Configuration) {
        section.color("from").assign(to: &configuration.background.from)
        section.color("to").assign(to: &configuration.background.to)
        section.number("angle", in: BackgroundSettings.angleRange).assign(to: &configuration.background.angle)
    }
}
