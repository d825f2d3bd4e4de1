public import LightShowCore

/// Where lightshow publishes and listens. State and commands live under the base topic (`lightshow/<host>`),
/// discovery configs under Home Assistant's prefix.
public struct HomeAssistantTopics: Equatable, Sendable {
    public let base: String
    public let discoveryPrefix: String

    public init(base: String, discoveryPrefix: String) {
        self.base = base
        self.discoveryPrefix = discoveryPrefix
    }

    /// `online` or `offline`, retained; the broker publishes `offline` as the last will.
    public var availability: String { "\(base)/availability" }
    /// Home Assistant says `online` here when it (re)starts: time to publish configs and states again.
    public var homeAssistantStatus: String { "\(discoveryPrefix)/status" }

    public var lightState: String { "\(base)/light/state" }
    public var lightCommand: String { "\(base)/light/set" }
    public var playState: String { "\(base)/play/state" }
    public var playCommand: String { "\(base)/play/set" }
    public var inputState: String { "\(base)/input/state" }
    public var inputCommand: String { "\(base)/input/set" }
    public var reloadCommand: String { "\(base)/reload/press" }
    public var title: String { "\(base)/title" }
    public var state: String { "\(base)/state" }
    public func level(_ band: Band) -> String { "\(base)/level/\(band.rawValue)" }

    /// Every topic lightshow subscribes to.
    public var subscriptions: [String] {
        [homeAssistantStatus, lightCommand, playCommand, inputCommand, reloadCommand]
    }

    /// `<prefix>/<component>/<object_id>/config`.
    public func config(component: String, objectID: String) -> String {
        "\(discoveryPrefix)/\(component)/\(objectID)/config"
    }
}
