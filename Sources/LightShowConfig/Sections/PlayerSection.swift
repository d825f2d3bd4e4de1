import LightShowCore

/// `[player]`: source (auto, mpd, mpris, none).
enum PlayerSection: ConfigSection {
    static let name = "player"

    static func read(_ section: SectionReader, into configuration: inout Configuration) {
        if let source = section.parsed("source", expected: PlayerSettings.Source.expectedSyntax, PlayerSettings.Source.init(rawValue:)) {
            configuration.player.source = source
        }
    }
}
