import ArgumentParser

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
