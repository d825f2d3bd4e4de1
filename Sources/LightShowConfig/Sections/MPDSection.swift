import LightShowCore

/// `[mpd]`: address ("" = off), password.
enum MPDSection: ConfigSection {
    static let name = "mpd"

    static func read(_ section: SectionReader, into configuration: inout Configuration) {
        section.string("address").assign(to: &configuration.mpd.address)
        section.string("password").assign(to: &configuration.mpd.password)
    }
}
