import LightShowCore
import LightShowNowPlaying

/// The title and song position the toolbar shows: the now-playing source's while it is connected, else the
/// input's own.
struct NowPlaying {
    let defaultTitle: String
    /// True when the audio time is the song position (a file, the demo); false for live capture and pipes.
    let inputTimeIsElapsed: Bool
    private var player: NowPlayingStatus?
    /// Show seconds when `player` arrived, to advance its elapsed while it plays.
    private var playerReceivedAt = 0.0

    init(spec: InputSpec) {
        defaultTitle = spec.defaultTitle
        switch spec {
        case .file, .demo: inputTimeIsElapsed = true
        case .alsa, .pulse, .fifo, .stdin: inputTimeIsElapsed = false
        }
    }

    mutating func update(_ status: NowPlayingStatus?, at showSeconds: Double) {
        player = status
        playerReceivedAt = showSeconds
    }

    /// True when the connected player takes play/pause/stop from us.
    var playerAcceptsCommands: Bool { player?.canControl ?? false }

    var title: String { player?.title ?? defaultTitle }

    /// Seconds into the song at `showSeconds` (show clock) and `audioTime` (input timeline), if known.
    func elapsed(at showSeconds: Double, audioTime: Double) -> Double? {
        guard let player else { return inputTimeIsElapsed ? audioTime : nil }
        guard let elapsed = player.elapsed else { return nil }
        let now = player.state == .playing ? elapsed + max(0, showSeconds - playerReceivedAt) : elapsed
        return player.duration.map { min(now, $0) } ?? now
    }
}
