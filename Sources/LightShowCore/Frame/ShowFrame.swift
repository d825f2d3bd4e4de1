/// Everything a sink (terminal, PNG, analyze writer, subscriber) needs to draw one moment of the show.
public struct ShowFrame: Sendable, Equatable {
    /// Frame number from the start of the output, counting from 0.
    public var index: Int
    /// Audio time in seconds from the start of the input.
    public var time: Double
    /// Lights as they should be drawn (state effects such as dimming or fading already applied).
    public var levels: BandLevels
    public var state: PlaybackState
    public var title: String
    /// Seconds into the current song, if known.
    public var elapsed: Double?
    /// The analysis behind `levels`, before the playback effects: each band's envelope and accent apart, and the
    /// onsets decided since the previous frame. Zero and empty on a frame no analysis made (a key press, a fade).
    public var envelope: BandLevels = .zero
    public var accent: BandLevels = .zero
    public var onsets: [Onset] = []
    /// The analysis' spectrum summary, when an output asked for it (WLED audio sync); like `envelope`, before
    /// the playback effects.
    public var spectrum: SpectrumSummary?

    public init(index: Int, time: Double, levels: BandLevels, state: PlaybackState, title: String, elapsed: Double? = nil) {
        self.index = index
        self.time = time
        self.levels = levels
        self.state = state
        self.title = title
        self.elapsed = elapsed
    }
}
