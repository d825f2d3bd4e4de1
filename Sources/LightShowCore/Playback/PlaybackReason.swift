/// A command from the person watching: keys in `watch`, or `lightshow ctl`.
public enum UserCommand: String, Sendable, Hashable, Codable, CaseIterable {
    case play, pause, toggle, stop

    /// A toggle made explicit against `state`, for a player that must be told play or pause.
    public func resolved(from state: PlaybackState) -> UserCommand {
        guard self == .toggle else { return self }
        return state == .playing ? .pause : .play
    }
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
    /// The now-playing source (MPD, an MPRIS player) reported this state.
    case player(PlaybackState)
    /// The now-playing source went away; the state it set is kept until the audio or the user says otherwise.
    case playerLost

    public var description: String {
        switch self {
        case .initial: "not started"
        case .user(let command): "user pressed \(command.rawValue)"
        case .inputStarted: "input started"
        case .inputEnded: "input ended"
        case .silence(let seconds):
            "silence for \((seconds * 10).rounded() / 10) s"
        case .soundReturned: "sound returned"
        case .player(let state): "the player reports \(state.rawValue)"
        case .playerLost: "the player went away"
        }
    }
}
