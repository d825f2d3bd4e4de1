import LightShowCore

/// What applying a new configuration over the running one takes, decided from the two alone. The lights always
/// take the new one first (their hosts are looked up again: an address may have moved), then this plan.
struct ReloadPlan: Equatable, Sendable {
    /// `[input]` or the now-playing source changed: the input closes and opens again, and its new engine is built
    /// from the new configuration. Otherwise the running engine takes the new bands, analysis and playback
    /// settings.
    var restartsInput: Bool
    /// The colours, gradient or proportions changed: viewers get the new scene.
    var publishesScene: Bool
    /// `[control]` changed, which only a restart of the daemon applies.
    var controlWaitsForRestart: Bool
    /// `[mqtt]` changed, which only a restart of the daemon applies.
    var mqttWaitsForRestart: Bool

    init(from old: Configuration, to new: Configuration) {
        restartsInput = new.input != old.input || new.mpd != old.mpd || new.player != old.player || new.mpris != old.mpris
        publishesScene = Scene.Style(new) != Scene.Style(old)
        controlWaitsForRestart = new.control != old.control
        mqttWaitsForRestart = new.mqtt != old.mqtt
    }
}
