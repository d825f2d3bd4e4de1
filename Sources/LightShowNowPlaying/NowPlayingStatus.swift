public import LightShowCore

/// What a player says it is doing.
public struct NowPlayingStatus: Sendable, Equatable {
    public var state: PlaybackState
    /// The song's title as the toolbar shows it, already safe for a terminal; nil when there is no song.
    public var title: String?
    /// Seconds into the song when the player answered.
    public var elapsed: Double?
    public var duration: Double?
    /// True when the player accepts play/pause/stop from us.
    public var canControl: Bool

    public init(
        state: PlaybackState, title: String? = nil, elapsed: Double? = nil, duration: Double? = nil,
        canControl: Bool = true
    ) {
        self.state = state
        self.title = title.map(SafeText.sanitized)
        self.elapsed = elapsed.flatMap(Self.seconds)
        self.duration = duration.flatMap(Self.seconds)
        self.canControl = canControl
    }

    /// `Title`, else `Artist – file name`, else the file name (without its folder); nil when none is known.
    public static func title(title: String?, artist: String?, file: String?) -> String? {
        if let title, !title.isEmpty { return title }
        let fileName = file.flatMap { $0.split(separator: "/").last.map(String.init) }
        switch (artist, fileName) {
        case (let artist?, let fileName?) where !artist.isEmpty: return "\(artist) – \(fileName)"
        case (_, let fileName?): return fileName
        case (let artist?, nil) where !artist.isEmpty: return artist
        default: return nil
        }
    }

    /// A song position from outside: finite, not negative, at most a year; anything else is unknown.
    static func seconds(_ value: Double) -> Double? {
        value.isFinite && value >= 0 && value <= 366 * 86_400 ? value : nil
    }
}
