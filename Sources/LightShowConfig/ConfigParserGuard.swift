import LightShowCore
import Synchronization

/// toml++ (under TOMLKit) checks some of its parser's assumptions with `assert`, which SwiftPM leaves on in release
/// builds: text such as `a = [[0, 2], }]` or `[ \`a]` aborts the whole process (the config fuzzer found three kinds
/// in minutes). Text refused by `ConfigTextLimits` never gets that far, but no checker short of a second TOML
/// parser can rule the rest out. So a program may install a probe that parses the text in a throw-away process
/// first (`lightshow` runs itself); the text reaches TOMLKit here only if that process survived. Without a probe
/// (tests, the fuzz targets) the text is parsed directly.
public enum ConfigParserGuard {
    /// What the probe found.
    public enum Verdict: Sendable {
        /// The parser ran to the end in the other process: parsing here is safe.
        case survived
        /// The parser crashed (or hung) on this text.
        case crashed(String)
    }

    private static let installed = Mutex<Callback<String, Verdict>?>(nil)

    /// Installs `probe` for every later file read through `ConfigurationLoader.read(file:)`.
    public static func install(_ probe: @escaping @Sendable (String) -> Verdict) {
        let boxed = Callback(probe)
        installed.withLock { $0 = boxed }
    }

    static func check(_ text: String) -> Verdict {
        guard let probe = installed.withLock({ $0 }) else { return .survived }
        return probe.call(text)
    }
}
