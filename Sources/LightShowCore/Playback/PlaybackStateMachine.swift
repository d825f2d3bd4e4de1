/// playing / paused / stopped, driven by everything that knows what the music is doing.
///
/// A pure value type: each event method updates the state and returns what its owner must do about it; time comes
/// only from the injected clock, so tests drive it with a manual one.
///
/// Precedence:
/// - An explicit command (the user's, or a change the player reports) outranks the silence heuristics.
///   Between user and player, the newest command wins.
/// - A user's pause or stop holds until the user plays again, whatever the audio does.
/// - An automatic idle stop ends as soon as sound returns.
/// - While a now-playing source (MPD, MPRIS) is connected its state is the truth: silence never stops the show then (the lights only go dim).
/// - The end of the input stops the show until the input starts again.
public struct PlaybackStateMachine<C: Clock>: Sendable where C.Duration == Duration {
    /// What the owner must do after an event.
    public enum Action: Sendable, Equatable {
        /// Nothing visible changed.
        case none
        /// Show live lights, ▶ and the title.
        case play(PlaybackReason)
        /// Hold the last levels, dimmed, and show ⏸.
        case pause(PlaybackReason)
        /// Collapse the toolbar and fade the lights out.
        case stop(PlaybackReason)

        /// The state entered, or nil for `.none`.
        public var newState: PlaybackState? {
            switch self {
            case .none: nil
            case .play: .playing
            case .pause: .paused
            case .stop: .stopped
            }
        }

        public var reason: PlaybackReason? {
            switch self {
            case .none: nil
            case .play(let reason), .pause(let reason), .stop(let reason): reason
            }
        }
    }

    public private(set) var state: PlaybackState = .stopped
    /// Why `state` is what it is (updated even when a command confirms the current state).
    public private(set) var reason: PlaybackReason = .initial
    /// The player's last reported state while it is connected; nil while there is none or it is unreachable.
    public private(set) var playerState: PlaybackState?
    public private(set) var isInputRunning = false

    private let clock: C
    private var idleAfter: Duration
    /// When sound was last heard (or when a state began that should get a full `idle_after` before idling).
    private var lastSound: C.Instant

    public init(idleAfter: Duration, clock: C) {
        self.clock = clock
        self.idleAfter = idleAfter
        self.lastSound = clock.now
    }

    public init(settings: PlaybackSettings, clock: C) {
        self.init(idleAfter: Self.idleAfter(settings), clock: clock)
    }

    /// Reloaded settings: the state and what it rests on stay as they are; silence is judged by the new limit.
    public mutating func adopt(_ settings: PlaybackSettings) {
        idleAfter = Self.idleAfter(settings)
    }

    private static func idleAfter(_ settings: PlaybackSettings) -> Duration {
        .milliseconds(Int64(saturating: (settings.idleAfterSeconds * 1000).rounded()))
    }

    public var isPlayerConnected: Bool { playerState != nil }

    /// The instant at which continued silence would stop the show, or nil when silence can't change anything now.
    /// The owner checks back with `timeoutTriggered()` then, so a source that delivers nothing still idles out.
    public var idleDeadline: C.Instant? {
        state != .stopped && followsAudio ? lastSound.advanced(by: idleAfter) : nil
    }

    /// True when sound would change the state now (an automatic stop or pause), so a sleeping show must keep
    /// listening; false under a command (a user's stop, the player), when no audio matters until the state changes.
    public var wakesOnSound: Bool { state != .playing && followsAudio }

    // MARK: Events

    public mutating func user(_ command: UserCommand) -> Action {
        let target: PlaybackState
        switch command {
        case .play: target = .playing
        // Like MPD: pausing what is stopped does nothing.
        case .pause:
            guard state != .stopped else { return .none }
            target = .paused
        case .toggle: target = state == .playing ? .paused : .playing
        case .stop: target = .stopped
        }
        // Nothing to play once the input is over.
        if target == .playing && !isInputRunning && !isPlayerConnected { return .none }
        if target == .playing { lastSound = clock.now }
        return enter(target, because: .user(command))
    }

    public mutating func inputStarted() -> Action {
        isInputRunning = true
        lastSound = clock.now
        guard !isPlayerConnected, state == .stopped, !isUserHold else { return .none }
        return enter(.playing, because: .inputStarted)
    }

    public mutating func inputEnded() -> Action {
        isInputRunning = false
        return enter(.stopped, because: .inputEnded)
    }

    /// One analysis step (or, while analysis sleeps, one capture block): was there sound?
    public mutating func audio(hasSound: Bool) -> Action {
        guard hasSound else { return timeoutTriggered() }
        lastSound = clock.now
        guard state != .playing, followsAudio else { return .none }
        return enter(.playing, because: .soundReturned)
    }

    /// The clock reached `idleDeadline` (or any time: an early call does nothing).
    public mutating func timeoutTriggered() -> Action {
        guard state != .stopped, followsAudio else { return .none }
        let quiet = lastSound.duration(to: clock.now)
        guard quiet >= idleAfter else { return .none }
        return enter(.stopped, because: .silence(seconds: quiet.inSeconds))
    }

    /// The now-playing source is connected and reports `reported` (after connecting, and after every change).
    public mutating func player(_ reported: PlaybackState) -> Action {
        let previous = playerState
        playerState = reported
        // The same state again (a new song, say) leaves any newer user command in place.
        guard previous != reported else { return .none }
        lastSound = clock.now
        return enter(reported, because: .player(reported))
    }

    /// The player went away or can't be reached: its word is no longer the truth, so the audio heuristics take over.
    public mutating func playerLost() -> Action {
        guard playerState != nil else { return .none }
        playerState = nil
        // A full idle_after from now, so losing the player doesn't stop the show at once.
        lastSound = clock.now
        if case .player = reason { reason = .playerLost }
        return .none
    }

    // MARK: Rules

    /// A user's pause or stop, which only the user (or a new player state) lifts.
    private var isUserHold: Bool {
        if case .user = reason { return state != .playing }
        return false
    }

    /// True when silence may stop the show and sound may start it again.
    private var followsAudio: Bool {
        guard isInputRunning, !isPlayerConnected, !isUserHold else { return false }
        switch reason {
        case .inputEnded, .player: return false
        default: return true
        }
    }

    private mutating func enter(_ target: PlaybackState, because why: PlaybackReason) -> Action {
        reason = why
        guard target != state else { return .none }
        state = target
        switch target {
        case .playing: return .play(why)
        case .paused: return .pause(why)
        case .stopped: return .stop(why)
        }
    }
}

extension Duration {
    /// Seconds as a Double, for messages and effects.
    public var inSeconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
