public import Testing

/// What a test needs beyond the package itself, so a subset can be run on purpose:
/// `swift test --filter tag:tmux` (or `make test-tmux`, `make test-pulse`, `make test-mpd`).
extension Tag {
    /// Starts a private PulseAudio server.
    @Tag public static var pulseAudio: Self
    /// Starts a real MPD.
    @Tag public static var mpd: Self
    /// Drives the viewer in tmux.
    @Tag public static var tmux: Self
}
