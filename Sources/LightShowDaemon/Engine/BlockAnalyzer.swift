public import LightShowAnalysis
public import LightShowCore

/// Turns sample blocks into analysis frames: the analyser as the engine sees it.
/// Created when the engine starts and used only behind its lock, one call at a time, so it needn't be Sendable.
public protocol BlockAnalyzer: AnyObject {
    func process(_ block: SampleBlock) -> [AnalysisFrame]
    /// New band ranges and analysis settings from a config reload, taking effect from the next hop.
    func reconfigure(analysis: AnalysisSettings, bands: BandsSettings)
}

extension LevelAnalyzer: BlockAnalyzer {}

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
