public import LightShowCore
public import LightShowConfig

/// Where the daemon's configuration comes from: the config file (if any) over the defaults, then the
/// command-line overrides. Read at start and again on every reload, so flags keep winning over the file.
public struct DaemonConfigurationSource: Sendable {
    /// The config file; nil runs on the built-in defaults (and a reload re-applies them).
    public var file: String?
    /// `--input`, `--format-pcm` and the player flags applied over the file.
    public var input: InputSpec?
    public var pcmFormat: PCMFormat?
    public var mpdAddress: String?
    /// The player flags as one edit (`--player`, `--mpd`, `--mpris`), re-applied after every reload.
    public var player: (@Sendable (inout Configuration) -> Void)?
    /// `--web ADDRESS`: `[web] listen` for this run.
    public var webListen: String?

    public init(
        file: String?, input: InputSpec? = nil, pcmFormat: PCMFormat? = nil, mpdAddress: String? = nil,
        player: (@Sendable (inout Configuration) -> Void)? = nil, webListen: String? = nil
    ) {
        self.file = file
        self.input = input
        self.pcmFormat = pcmFormat
        self.mpdAddress = mpdAddress
        self.player = player
        self.webListen = webListen
    }

    /// The configuration now, or a `ConfigurationError` listing every problem (exit 78).
    /// Warnings (unknown keys) go to `warn`.
    public func load(warn: (String) -> Void) throws(ConfigurationError) -> Configuration {
        var configuration = Configuration.defaults
        if let file {
            configuration = try ConfigurationLoader.load(file: file, warn: warn)
        }
        if let input { configuration.input.source = input }
        if let pcmFormat { configuration.input.pcmFormat = pcmFormat }
        if let mpdAddress { configuration.mpd.address = mpdAddress }
        player?(&configuration)
        if let webListen {
            configuration.web.listen = webListen
            // The file's check saw its own listen address; this one needs the same rule.
            if !configuration.web.isLoopbackOnly, !configuration.web.hasToken {
                let problem = ConfigDiagnostic(
                    .error, keyPath: "web.token",
                    "--web \(SafeText.sanitized(webListen, limit: 80)) is reachable from other machines: set web.token or web.token_file, or use \(WebSettings.usualListen)"
                )
                throw ConfigurationError(file: file ?? "(built-in defaults)", reason: .invalid([problem]))
            }
        }
        return configuration
    }
}
