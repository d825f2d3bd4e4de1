import ArgumentParser
import LightShowCore

/// Where the playback state and title come from, for every command that shows a state (`analyze`, `watch`,
/// `record`, `daemon`): the same flags over the same config keys (`[player] source`, `[mpd] address`,
/// `[mpris] player`).
struct PlayerOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where state and title come from: auto (MPD if an address is set, else MPRIS on a desktop), mpd, mpris or none (default: [player] source, auto).",
            valueName: "auto|mpd|mpris|none")
    )
    var player: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Follow MPD's state and title (default: [mpd] address of the config; \"\" = off).", valueName: "HOST[:PORT]|SOCKET")
    )
    var mpd: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Follow only this desktop player over MPRIS, e.g. vlc or spotify (default: [mpris] player; \"\" = the one playing).",
            valueName: "NAME")
    )
    var mpris: String?

    /// Whether any flag was given.
    var isGiven: Bool { player != nil || mpd != nil || mpris != nil }

    func validate() throws {
        if let player, PlayerSettings.Source(rawValue: player) == nil {
            throw ValidationError("--player '\(player)': expected \(PlayerSettings.Source.expectedSyntax)")
        }
    }

    /// `--player`, parsed (validated above).
    var source: PlayerSettings.Source? { player.flatMap(PlayerSettings.Source.init(rawValue:)) }

    /// Applies the flags over the configuration. `--mpris NAME` alone also chooses MPRIS, unless `--player` says
    /// otherwise.
    func apply(to configuration: inout Configuration) {
        if let mpd { configuration.mpd.address = mpd }
        if let mpris {
            configuration.mpris.player = mpris
            if player == nil, !mpris.isEmpty { configuration.player.source = .mpris }
        }
        if let source { configuration.player.source = source }
    }
}
