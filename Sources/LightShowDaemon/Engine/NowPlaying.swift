import LightShowCore

/// The title and song position the toolbar shows: MPD's while it is connected, else the input's own.
struct NowPlaying {
    let defaultTitle: String
    /// True when the audio time is the song position (a file, the demo); false for live capture and pipes.
    let inputTimeIsElapsed: Bool
    private var mpd: MPDStatus?
    /// Show seconds when `mpd` arrived, to advance its elapsed while it plays.
    private var mpdReceivedAt = 0.0

    init(spec: InputSpec) {
        defaultTitle = spec.defaultTitle
        switch spec {
        case .file, .demo: inputTimeIsElapsed = true
        case .alsa, .fifo, .stdin: inputTimeIsElapsed = false
        }
    }

    mutating func update(_ status: MPDStatus?, at showSeconds: Double) {
        mpd = status
        mpdReceivedAt = showSeconds
    }

    var title: String { mpd?.title ?? defaultTitle }

    /// Seconds into the song at `showSeconds` (show clock) and `audioTime` (input timeline), if known.
    func elapsed(at showSeconds: Double, audioTime: Double) -> Double? {
        guard let mpd else { return inputTimeIsElapsed ? audioTime : nil }
        guard let elapsed = mpd.elapsed else { return nil }
        let now = mpd.state == .playing ? elapsed + max(0, showSeconds - mpdReceivedAt) : elapsed
        return mpd.duration.map { min(now, $0) } ?? now
    }
}
