import LightShowCore

/// What one MPRIS player last said, from its `org.mpris.MediaPlayer2.Player` properties. Everything in it came
/// from the player: types are checked, numbers sanitized by `NowPlayingStatus`, text by `SafeText`.
struct MPRISPlayer: Sendable, Equatable {
    static let namePrefix = "org.mpris.MediaPlayer2."

    /// The well-known name, e.g. `org.mpris.MediaPlayer2.mpv` or `org.mpris.MediaPlayer2.vlc.instance42`.
    let busName: String
    /// The unique name that owns it (`:1.42`): signals are signed with this one.
    var owner: String
    var state = PlaybackState.stopped
    var title: String?
    var elapsed: Double?
    var duration: Double?
    var canControl = false
    /// False until its properties were first read: until then its state is not known, and it is never followed.
    var isKnown = false
    /// Monotonic nanoseconds of its last change: among players that don't play, the latest one is followed.
    var lastActive: UInt64

    /// The name after the prefix (`mpv`, `vlc.instance42`), for logs, `ctl status` and `--mpris NAME`.
    var shortName: String { String(busName.dropFirst(Self.namePrefix.count)) }

    static func isPlayer(_ busName: String) -> Bool {
        // playerctld is a proxy that mirrors another player: following it would count that player twice.
        busName.hasPrefix(namePrefix) && busName.count > namePrefix.count && busName != namePrefix + "playerctld"
    }

    /// True when `pinned` (`--mpris NAME`) names this player: `vlc` matches `vlc` and `vlc.instance42`.
    func matches(pinned: String) -> Bool {
        shortName == pinned || shortName.hasPrefix(pinned + ".") || busName == pinned
    }

    /// Takes the properties of a `GetAll` reply; a property missing or of the wrong type counts as unknown.
    mutating func apply(_ properties: [String: DBusValue]) {
        isKnown = true
        switch properties["PlaybackStatus"]?.string {
        case "Playing": state = .playing
        case "Paused": state = .paused
        default: state = .stopped
        }
        let metadata = properties["Metadata"]?.dictionary ?? [:]
        let artists = (metadata["xesam:artist"]?.strings ?? []).prefix(4).joined(separator: ", ")
        title = NowPlayingStatus.title(
            title: metadata["xesam:title"]?.string,
            artist: artists.isEmpty ? nil : artists,
            file: metadata["xesam:url"]?.string.map(Self.fileName))
        duration = metadata["mpris:length"]?.number.map { $0 / 1_000_000 }
        elapsed = properties["Position"]?.number.map { $0 / 1_000_000 }
        canControl = properties["CanControl"]?.boolean ?? false
    }

    /// The last part of a `file://` URL or path; other URLs (streams) whole.
    private static func fileName(_ url: String) -> String {
        guard url.hasPrefix("file://") || url.hasPrefix("/") else { return url }
        return url.split(separator: "/").last.map(String.init) ?? url
    }

    var status: NowPlayingStatus {
        NowPlayingStatus(state: state, title: title, elapsed: elapsed, duration: duration, canControl: canControl)
    }

    /// The player to follow: the one that plays (the latest to start, if several), else the latest active;
    /// only those `pinned` names when it is set, and only players whose properties have been read.
    static func choose(_ players: some Sequence<MPRISPlayer>, pinned: String?) -> MPRISPlayer? {
        let candidates = players.filter { $0.isKnown && (pinned.map($0.matches(pinned:)) ?? true) }
        let playing = candidates.filter { $0.state == .playing }
        // Ties go to the name, so the choice never flips between equals.
        return (playing.isEmpty ? candidates : playing).max {
            ($0.lastActive, $1.busName) < ($1.lastActive, $0.busName)
        }
    }
}
