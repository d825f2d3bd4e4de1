/// How the playback state shows on the lights, as a pure step over time:
/// live levels while playing, the last levels held and dimmed while paused, a fade to dark while stopped.
public struct PlaybackEffects: Sendable {
    public private(set) var pausedDim: Float = 0
    public private(set) var fadeOutSeconds: Double = 0

    public private(set) var state: PlaybackState = .stopped
    /// The newest live levels seen while playing: what pause holds.
    private var lastLive = BandLevels.zero
    /// What was drawn last: where a fade starts.
    private var shown = BandLevels.zero
    private var fadeFrom = BandLevels.zero
    /// Show time (seconds) when the current stop began; the start is dark already.
    private var fadeStart = -Double.infinity

    public init(settings: PlaybackSettings) {
        adopt(settings)
    }

    /// Reloaded settings, from the next frame on; a fade under way goes on at the new length.
    public mutating func adopt(_ settings: PlaybackSettings) {
        pausedDim = Float(min(1, max(0, settings.pausedDim)))
        fadeOutSeconds = max(0, settings.fadeOutSeconds)
    }

    /// The state changed at `time` (seconds on the show's clock).
    public mutating func enter(_ newState: PlaybackState, at time: Double) {
        guard newState != state else { return }
        state = newState
        if newState == .stopped {
            fadeFrom = shown
            fadeStart = time
        }
    }

    /// The lights to draw at `time`. `live` is the analyser's newest levels (nil when there is no new analysis).
    public mutating func levels(live: BandLevels?, at time: Double) -> BandLevels {
        switch state {
        case .playing:
            if let live { lastLive = live }
            shown = lastLive
        case .paused:
            shown = lastLive.scaled(by: pausedDim)
        case .stopped:
            shown = fadeFrom.scaled(by: Float(1 - fadeProgress(at: time)))
        }
        return shown
    }

    /// True once stopped and faded out: nothing changes on screen until the state does.
    public func isDark(at time: Double) -> Bool {
        state == .stopped && fadeProgress(at: time) >= 1
    }

    /// 0 at the start of the stop, 1 when the lights are out.
    private func fadeProgress(at time: Double) -> Double {
        guard fadeOutSeconds > 0 else { return 1 }
        return min(1, max(0, (time - fadeStart) / fadeOutSeconds))
    }
}
