public import LightShowCore

/// Where the viewer gets its frames and sends the user's commands: the seam between `watch`'s own pipeline
/// (source + analyzer + playback state) and a running daemon (`--connect`). Called from the viewer thread, and
/// from the feed's own thread on hearing `frames`.
public protocol ShowFeed: AnyObject, Sendable {
    /// The newest frame, or nil before the first one.
    func latestFrame() -> ShowFrame?
    /// Announces new frames on the thread that made them.
    var frames: Announcer { get }
    /// play / pause / toggle / stop from the keyboard.
    func send(_ command: UserCommand)
    /// New band ranges from the tuning panel; they take effect in the analyzer at once.
    func updateBands(_ bands: BandsSettings)
    /// The scene to draw when the feed has one of its own (a daemon's colours, gradient, proportions and band
    /// ranges); nil to draw with the viewer's configuration.
    var sceneStyle: Scene.Style? { get }
}
