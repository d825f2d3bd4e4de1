/// `[player]`: where the playback state and title come from.
public struct PlayerSettings: Equatable, Sendable {
    /// `auto`: MPD when `[mpd] address` is set, else MPRIS when there is a session bus, else none.
    public enum Source: String, Sendable, Equatable, CaseIterable {
        case auto, mpd, mpris, none

        public static let expectedSyntax = "auto, mpd, mpris or none"
    }

    public var source = Source.auto

    public init() {}
}
