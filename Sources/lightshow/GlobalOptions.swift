import ArgumentParser
import LightShowConfig
import LightShowCore
import LightShowControl
import LightShowSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    /// The config file this command reads: `--config`, else the first default location present, else nil.
    var configFile: String? {
        ConfigurationLocator(environment: ProcessInfo.processInfo.environment).locate(explicit: config)
    }

    /// The configuration this command runs on: the file from `--config` (or the default locations) over the built-in defaults.
    /// Commands then apply their own flags on top. Warnings go to stderr; a missing `--config` file exits 66,
    /// an invalid file 78 with every error listed. Read on a thread of its own: the file, and the parser's probe in a
    /// child process (`ConfigParserProbe`), block.
    func loadConfiguration() async throws -> Configuration {
        guard let file = configFile else { return Configuration.defaults }
        return try await DedicatedThread.complete(name: "ls-config") {
            try ConfigurationLoader.load(file: file) { warning in printError("lightshow: \(warning)") }
        }
    }
}

extension GlobalOptions {
    /// The daemon's control socket: `explicit` (a `--socket`/`--connect` value), else `[control] socket` of the
    /// config (other problems in the file are the daemon's to report, so a bad file doesn't stop `ctl reload`),
    /// else `$RUNTIME_DIRECTORY/control.sock`, else `$XDG_RUNTIME_DIR/lightshow/control.sock`. The config is read on
    /// a thread of its own, as `loadConfiguration` reads it.
    func controlSocketPath(explicit: String?) async throws -> String {
        if let explicit { return explicit }
        var configured = ""
        // A file that can't be read (or is refused before parsing) leaves the default: `ctl reload` must still reach
        // the daemon to hear its errors.
        if let file = configFile {
            configured = try await DedicatedThread.complete(name: "ls-config") {
                (try? ConfigurationLoader.read(file: file))?.configuration.control.socket ?? ""
            }
        }
        return try ControlSocketPath.resolve(configured: configured, environment: ProcessInfo.processInfo.environment)
    }
}

extension Configuration {
    /// `--input` and `--format-pcm` over the configured input; a bad value is a usage error naming the flag.
    mutating func apply(_ flags: InputOptions) throws {
        if let spec = try flags.spec() { input.source = spec }
        if let pcm = try flags.pcmFormat() { input.pcmFormat = pcm }
    }
}
