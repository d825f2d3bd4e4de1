/// What the music is doing, as far as the show knows.
public enum PlaybackState: String, Sendable, Hashable, Codable, CaseIterable {
    case playing, paused, stopped

    /// The toolbar glyph; `nil` when the toolbar is collapsed.
    public var glyph: String? {
        switch self {
        case .playing: "▶"
        case .paused: "⏸"
        case .stopped: nil
        }
    }
}
