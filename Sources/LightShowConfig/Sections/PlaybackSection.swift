import LightShowCore

/// `[playback]`: idle_after, fade_out, paused_dim.
enum PlaybackSection: ConfigSection {
    static let name = "playback"

    static func read(_ section: SectionReader, into configuration: inout Configuration) {
        section.duration("idle_after", in: 0.1...86_400).assign(to: &configuration.playback.idleAfterSeconds)
        section.duration("fade_out", in: 0...60).assign(to: &configuration.playback.fadeOutSeconds)
        section.number("paused_dim", in: 0...1).assign(to: &configuration.playback.pausedDim)
    }
}
