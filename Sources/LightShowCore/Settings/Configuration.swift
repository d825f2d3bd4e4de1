/// The one validated configuration every command runs on.
/// Built-in defaults here; `LightShowConfig` reads TOML over them and command-line flags override the result.
/// Each section lives in its own file.
public struct Configuration: Equatable, Sendable {
    public var input = InputSettings()
    public var bands = BandsSettings()
    public var analysis = AnalysisSettings()
    public var accents = AccentSettings()
    public var output = OutputSettings()
    public var background = BackgroundSettings()
    public var scene = SceneSettings()
    public var playback = PlaybackSettings()
    public var player = PlayerSettings()
    public var mpd = MPDSettings()
    public var mpris = MPRISSettings()
    public var control = ControlSettings()
    public var mqtt = MQTTSettings()
    public var web = WebSettings()
    /// `[[lights]]`: network light outputs, in file order.
    public var lights: [LightOutputSettings] = []

    public init() {}

    public static let defaults = Configuration()
}
