/// Which config file a command uses when `--config` is not given:
/// `$XDG_CONFIG_HOME/lightshow/lightshow.toml` (or `~/.config/…`), else `/etc/lightshow/lightshow.toml`, else none.
public struct ConfigurationLocator: Sendable {
    public static let systemPath = "/etc/lightshow/lightshow.toml"

    public var environment: [String: String]
    public var systemPath: String

    public init(environment: [String: String], systemPath: String = ConfigurationLocator.systemPath) {
        self.environment = environment
        self.systemPath = systemPath
    }

    /// The places looked at, in order.
    public var candidates: [String] {
        var paths: [String] = []
        // XDG: a relative $XDG_CONFIG_HOME is invalid and must be ignored.
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
            paths.append("\(base)/lightshow/lightshow.toml")
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            paths.append("\(home)/.config/lightshow/lightshow.toml")
        }
        paths.append(systemPath)
        return paths
    }

    /// The file to read: `explicit` when given (it must then exist), else the first candidate present, else nil.
    public func locate(explicit: String?) -> String? {
        if let explicit { return explicit }
        return candidates.first(where: ConfigFile.exists)
    }
}
