/// `[mpd]`: optional Music Player Daemon connection for state and title.
public struct MPDSettings: Equatable, Sendable {
    /// "" = off; "host:port", "host" (port 6600) or a socket path.
    public var address: String = ""
    public var password: String = ""

    public init() {}
}
