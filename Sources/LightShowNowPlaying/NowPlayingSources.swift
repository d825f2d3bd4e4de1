public import LightShowCore
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Chooses the now-playing source the configuration asks for: every command that shows a state (`analyze`,
/// `watch`, `record`, `daemon`) gets it from here, so they share one policy.
public enum NowPlayingSources {
    /// `[player] source`: `auto` takes MPD when `[mpd] address` is set (a configured MPD wins), else MPRIS when a
    /// session bus is there (a desktop) or `[mpris] player` pins one, else none. A bad setting throws (exit 64 or 78).
    /// - Parameter sessionBusPresent: for tests; nil looks at this process's environment.
    public static func make(
        _ configuration: Configuration, sessionBusPresent: Bool? = nil
    ) throws(LightShowError) -> (any NowPlayingSource)? {
        let mpd = try MPDClient(settings: configuration.mpd, logger: Logger(label: "lightshow.mpd"))
        switch configuration.player.source {
        case .none:
            return nil
        case .mpd:
            guard let mpd else {
                throw LightShowError("player source mpd needs an MPD address: set [mpd] address or pass --mpd HOST[:PORT]", exitStatus: .config)
            }
            return mpd
        case .mpris:
            return try mprisClient(configuration)
        case .auto:
            if let mpd { return mpd }
            guard !configuration.mpris.player.isEmpty || (sessionBusPresent ?? sessionBusInEnvironment) else { return nil }
            return try mprisClient(configuration)
        }
    }

    private static func mprisClient(_ configuration: Configuration) throws(LightShowError) -> MPRISClient {
        try MPRISClient(pinned: configuration.mpris.player, logger: Logger(label: "lightshow.mpris"))
    }

    private static var sessionBusInEnvironment: Bool {
        var environment: [String: String] = [:]
        for key in ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"] { environment[key] = getenv(key).map { String(cString: $0) } }
        return MPRISClient.sessionBusPresent(environment)
    }
}
