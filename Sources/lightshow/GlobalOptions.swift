import ArgumentParser
import LightShowCore

/// Options every subcommand takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Config file (default: $XDG_CONFIG_HOME/lightshow/lightshow.toml, else /etc/lightshow/lightshow.toml).",
            valueName: "FILE"
        ),
        completion: .file(extensions: ["toml"])
    )
    var config: String?
}

extension GlobalOptions {
    /// The configuration this command runs on: the file from `--config` (or the default locations) over the built-in defaults.
    /// Commands then apply their own flags on top.
    func loadConfiguration() throws -> Configuration {
        Configuration.defaults
    }
}
