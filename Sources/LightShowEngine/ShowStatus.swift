public import LightShowCore

/// The state of the show as `ctl status` and subscribers see it.
public struct ShowStatus: Sendable, Equatable {
    public var state: PlaybackState
    public var reason: PlaybackReason
    public var title: String
    /// True while a now-playing source (MPD, MPRIS) is connected and its state is the truth.
    public var playerConnected: Bool

    public init(state: PlaybackState, reason: PlaybackReason, title: String, playerConnected: Bool) {
        self.state = state
        self.reason = reason
        self.title = title
        self.playerConnected = playerConnected
    }
}
