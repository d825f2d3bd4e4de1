/// A command from the person watching: keys in `watch`, or `lightshow ctl`.
public enum UserCommand: String, Sendable, Hashable, Codable, CaseIterable {
    case play, pause, toggle, stop
}

/// Why the playback state is what it is. Every transition carries one, and the engine logs it once.
public enum PlaybackReason: Sendable, Equatable, CustomStringConvertible {
    /// Nothing has happened yet.
    case initial
    case user(UserCommand)
    case inputStarted
    /// End of file, or a source that finished for good.
    case inputEnded
    /// No sound for this long (at least `idle_after`).
    case silence(seconds: Double)
    case soundReturned
    /// MPD reported this state.
    case mpd(PlaybackState)
    /// MPD went away; the state it set is kept until the audio or the user says otherwise.
    case mpdLost

    public var description: String {
        switch self {
        case .initial: "not started"
        case .user(let command): "user pressed \(command.rawValue)"
        case .inputStarted: "input started"
        case .inputEnded: "input ended"
        case .silence(let seconds):
            "silence for \((seconds * 10).rounded() / 10) s"
        case .soundReturned: "sound returned"
        case .mpd(let state): "MPD reports \(state.rawValue)"
        case .mpdLost: "MPD connection lost"
        }
    }
}
