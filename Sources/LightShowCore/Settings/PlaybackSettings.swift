/// `[playback]`: the playing/paused/stopped machine.
public struct PlaybackSettings: Equatable, Sendable {
    /// Silence longer than this stops the show, seconds.
    public var idleAfterSeconds: Double = 10
    /// How long the lights take to fade out when stopped, seconds.
    public var fadeOutSeconds: Double = 1.5
    /// Brightness factor of the held lights while paused.
    public var pausedDim: Double = 0.35

    public init() {}
}
