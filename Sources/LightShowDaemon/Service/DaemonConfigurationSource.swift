public import LightShowCore
public import LightShowConfig

/// Where the daemon's configuration comes from: the config file (if any) over the defaults, then the
/// command-line overrides. Read at start and again on every reload, so flags keep winning over the file.
public struct DaemonConfigurationSource: Sendable {
    /// The config file; nil runs on the built-in defaults (and a reload re-applies them).
    public var file: String?
    /// `--input`, `--format-pcm` and `--mpd` applied over the file.
    public var input: InputSpec?
    public var pcmFormat: PCMFormat?
    public var mpdAddress: String?

    public init(file: String?, input: InputSpec? = nil, pcmFormat: PCMFormat? = nil, mpdAddress: String? = nil) {
        self.file = file
        self.input = input
        self.pcmFormat = pcmFormat
        self.mpdAddress = mpdAddress
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
        return configuration
    }
}
