import Testing

/// Tags for tests that start a real sound server, bus or player, so those subsets can be run (or skipped) on
/// purpose: `swift test --filter` by suite, or Xcode/`swift test` tag filters.
extension Tag {
    /// Starts a private PulseAudio server.
    @Tag public static var pulseAudio: Self
    /// Starts pipewire, wireplumber and pipewire-pulse.
    @Tag public static var pipeWire: Self
    /// Starts a private D-Bus session bus.
    @Tag public static var dbus: Self
    /// Drives a real mpv.
    @Tag public static var mpv: Self
}
