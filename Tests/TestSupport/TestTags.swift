public import Testing

/// What a test needs beyond the package itself, so a subset can be run on purpose: `make test-tag TAG=tmux`
/// (this swift-testing has no tag filter, so the Makefile turns the suites tagged here into a `--filter`).
extension Tag {
    /// Starts a private PulseAudio server.
    @Tag public static var pulseAudio: Self
    /// Starts pipewire, wireplumber and pipewire-pulse.
    @Tag public static var pipeWire: Self
    /// Starts a private D-Bus session bus.
    @Tag public static var dbus: Self
    /// Drives a real mpv.
    @Tag public static var mpv: Self
    /// Starts a real MPD.
    @Tag public static var mpd: Self
    /// Drives the viewer in tmux.
    @Tag public static var tmux: Self
    /// Starts a real xterm on a private Xvfb and reads its screen back (ImageMagick's `import`).
    @Tag public static var xterm: Self
    /// Starts OLA as a real sACN/Art-Net receiver in a network namespace.
    @Tag public static var ola: Self
    /// Drives Debian's Chromium through chromedriver with Selenium (python3-selenium).
    @Tag public static var chromium: Self
}
