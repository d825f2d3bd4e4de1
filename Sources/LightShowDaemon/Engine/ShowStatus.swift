public import LightShowCore

/// The state of the show as `ctl status` and subscribers see it.
public struct ShowStatus: Sendable, Equatable {
    public var state: PlaybackState
    public var reason: PlaybackReason
    public var title: String
    /// True while MPD is connected and its state is the truth.
    public var mpdConnected: Bool

    public init(state: PlaybackState, reason: PlaybackReason, title: String, mpdConnected: Bool) {
        self.state = state
        self.reason = reason
        self.title = title
        self.mpdConnected = mpdConnected
    }
}
