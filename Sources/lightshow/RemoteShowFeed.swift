import LightShowCore
import LightShowControl
import LightShowTerminal

/// `watch --connect` behind the `ShowFeed` seam: the frames a running daemon streams, drawn exactly as
/// `watch` draws its own, with the keys sent back to the daemon as control commands.
final class RemoteShowFeed: ShowFeed {
    let subscription: ShowSubscription
    let frames: Announcer

    private init(subscription: ShowSubscription, frames: Announcer) {
        self.subscription = subscription
        self.frames = frames
    }

    /// Subscribes to the daemon at `path` (the handshake waits off the cooperative pool).
    static func attach(path: String, framesPerSecond: Double) async throws(LightShowError) -> RemoteShowFeed {
        let frames = Announcer()
        let subscription = try await ShowSubscription.open(path: path, framesPerSecond: framesPerSecond) { frames.announce() }
        return RemoteShowFeed(subscription: subscription, frames: frames)
    }

    /// The daemon's newest frame; once the stream has ended (the daemon stopped), the show goes dark and stopped.
    func latestFrame() -> ShowFrame? {
        guard var frame = subscription.latestFrame else { return nil }
        if subscription.endReason != nil {
            frame.state = .stopped
            frame.levels = .zero
            frame.elapsed = nil
        }
        return frame
    }

    func send(_ command: UserCommand) { subscription.send(command) }

    /// Tuning here tunes the daemon: each changed range goes to it as `set-band`, which it checks as its config
    /// would, applies at once and tells every viewer (this one adopts what it says).
    func updateBands(_ bands: BandsSettings) {
        let current = subscription.latestScene?.bands
        for band in Band.allCases where bands[band].range != current?[band].range {
            subscription.setBand(band, range: bands[band].range)
        }
    }

    /// The daemon's scene, once it has sent one.
    var sceneStyle: Scene.Style? { subscription.latestScene }
}
