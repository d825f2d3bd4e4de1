public import LightShowCore
public import Logging

/// Chooses the now-playing source the configuration asks for: every command that shows a state (`analyze`,
/// `watch`, `record`, `daemon`) gets it from here, so they share one policy.
public enum NowPlayingSources {
    /// MPD when `[mpd] address` is set; otherwise none. A bad setting throws (exit 64 or 78).
    public static func make(_ configuration: Configuration) throws(LightShowError) -> (any NowPlayingSource)? {
        if let mpd = try MPDClient(settings: configuration.mpd, logger: Logger(label: "lightshow.mpd")) {
            return mpd
        }
        return nil
    }
}
