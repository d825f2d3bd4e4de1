import ArgumentParser
import LightShowCore

/// Where a viewer or recorder gets its show: its own input (`--input`, `--format-pcm`),
/// or a running daemon's stream (`--connect [SOCKET]`).
struct SourceOptions: ParsableArguments {
    @OptionGroup var inputFlags: InputOptions

    @OptionGroup var player: PlayerOptions

    // A flag plus an optional argument: swift-argument-parser has no option with an optional value.
    @Flag(help: "Attach to a running daemon (at SOCKET, else its default control socket) instead of reading an input.")
    var connect = false

    @Argument(help: ArgumentHelp("The daemon's control socket, with --connect.", valueName: "SOCKET"))
    var socket: String?

    func validate() throws {
        if socket != nil && !connect {
            throw ValidationError("a SOCKET argument needs --connect (did you mean --input?)")
        }
        if connect && inputFlags.isGiven {
            throw ValidationError("--connect takes the daemon's input; it can't be combined with --input or --format-pcm")
        }
        if connect && player.isGiven {
            throw ValidationError("--connect shows the daemon's player state; --player, --mpd and --mpris belong to the daemon's own config")
        }
    }

    /// Applies `--input`, `--format-pcm` and the player flags over the configuration.
    func apply(to configuration: inout Configuration) throws {
        try configuration.apply(inputFlags)
        player.apply(to: &configuration)
    }
}
