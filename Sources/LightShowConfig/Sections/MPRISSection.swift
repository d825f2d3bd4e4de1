import LightShowCore

/// `[mpris]`: player ("" = whichever plays).
enum MPRISSection: ConfigSection {
    static let name = "mpris"

    static func read(_ section: SectionReader, into configuration: inout Configuration) {
        section.string("player").assign(to: &configuration.mpris.player)
    }
}
