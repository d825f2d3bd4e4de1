import ArgumentParser
import LightShowCore

/// Where the playback state and title come from, for every command that shows a state (`analyze`, `watch`,
/// `record`, `daemon`): the same flags over the same config keys.
struct PlayerOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("Follow MPD's state and title (default: [mpd] address of the config; \"\" = off).", valueName: "HOST[:PORT]|SOCKET")
    )
    var mpd: String?

    /// Whether any flag was given.
    var isGiven: Bool { mpd != nil }

    /// Applies the flags over the configuration.
    func apply(to configuration: inout Configuration) {
        if let mpd { configuration.mpd.address = mpd }
    }
}
