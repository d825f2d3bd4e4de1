public import LightShowCore

/// A player that knows what the music is doing (MPD, a desktop player over MPRIS): the engine follows its
/// `events` and forwards the user's commands to it. While it reports a state, that state is the truth.
///
/// Implementations do their I/O on a thread of their own, never on the cooperative pool, and treat everything
/// the player says as hostile: bounded sizes, deadlines on every wait, control characters removed from titles.
public protocol NowPlayingSource: AnyObject, Sendable {
    /// Names the source in logs and `ctl status`, e.g. `MPD at localhost:6600` or `MPRIS vlc`.
    var name: String { get }
    /// The source's news, in order. Finishes after `stop()`.
    var events: AsyncStream<NowPlayingEvent> { get }
    /// Starts following the player. Call once; later calls do nothing.
    func start()
    /// Stops following: any wait ends at once and `events` finishes.
    func stop()
    /// Asks the player to play, pause or stop (a toggle is resolved by the engine first). Returns at once; the
    /// player's new state comes back through `events`. A source that can't control its player ignores it.
    func forward(_ command: UserCommand)
}

/// What a now-playing source tells the show.
public enum NowPlayingEvent: Sendable, Equatable {
    /// The player is there; its state and song, after connecting and after every change.
    case status(NowPlayingStatus)
    /// The player can't be reached or went away: its state is unknown until the next `.status`.
    /// Sent once per outage.
    case lost(String)
}
