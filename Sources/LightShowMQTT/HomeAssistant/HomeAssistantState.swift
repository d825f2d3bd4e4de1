import LightShowControl
public import LightShowCore

/// What Home Assistant shows of the show: published (retained) whenever a part of it changes.
public struct HomeAssistantState: Equatable, Sendable {
    public static let online = "online"
    public static let offline = "offline"

    public var state: PlaybackState
    public var title: String
    /// The input spec as `--input` takes it.
    public var input: String
    /// Master brightness, 0…1.
    public var brightness: Double
    /// The colour the light reports: the three lights' colour when they share one, else the bass light's.
    public var color: RGBColor

    public init(state: PlaybackState, title: String, input: String, brightness: Double, color: RGBColor) {
        self.state = state
        self.title = title
        self.input = input
        self.brightness = brightness
        self.color = color
    }

    /// Home Assistant keeps at most 255 characters of a sensor's state.
    static let maximumTitleCharacters = 255

    /// The state messages, retained, for `topics`.
    public func messages(_ topics: HomeAssistantTopics) -> [MQTTMessage] {
        let light: JSONValue = [
            "state": .string(state == .stopped ? "OFF" : "ON"),
            "brightness": .number((min(1, max(0, brightness.isFinite ? brightness : 0)) * 255).rounded()),
            "color_mode": "rgb",
            "color": ["r": .number(Double(color.red)), "g": .number(Double(color.green)), "b": .number(Double(color.blue))],
        ]
        return [
            MQTTMessage(topic: topics.lightState, text: light.description, retain: true),
            MQTTMessage(topic: topics.playState, text: state == .playing ? "ON" : "OFF", retain: true),
            MQTTMessage(topic: topics.inputState, text: SafeText.sanitized(input, limit: Self.maximumTitleCharacters), retain: true),
            MQTTMessage(topic: topics.title, text: SafeText.sanitized(title, limit: Self.maximumTitleCharacters), retain: true),
            MQTTMessage(topic: topics.state, text: state.rawValue, retain: true),
        ]
    }

    /// The band level sensors, in percent (not retained: a level is stale the moment it is read).
    public static func levelMessages(_ levels: BandLevels, _ topics: HomeAssistantTopics) -> [MQTTMessage] {
        Band.allCases.map { band in
            let percent = Double(levels[band]).isFinite ? min(100, max(0, Double(levels[band]) * 100)).rounded() : 0
            return MQTTMessage(topic: topics.level(band), text: String(Int(percent)))
        }
    }
}
