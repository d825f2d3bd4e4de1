public import LightShowControl
import LightShowCore

/// Home Assistant's MQTT discovery configs for one lightshow: retained JSON under
/// `<prefix>/<component>/<object_id>/config`, each with a `unique_id`, the `device` block, the `origin` and the
/// availability topic. See the README's "Home Assistant" section for what each entity does.
public struct HomeAssistantDiscovery: Sendable {
    public let topics: HomeAssistantTopics
    public let device: HomeAssistantDevice
    /// The select's options: each input `--input` takes, `demo` first.
    public let inputs: [String]

    public init(topics: HomeAssistantTopics, device: HomeAssistantDevice, inputs: [String]) {
        self.topics = topics
        self.device = device
        self.inputs = inputs
    }

    /// Every config message, retained.
    public var messages: [MQTTMessage] {
        entities.map { component, objectID, payload in
            MQTTMessage(topic: topics.config(component: component, objectID: objectID), text: payload.description, retain: true)
        }
    }

    /// (component, object id, config) of every entity.
    public var entities: [(component: String, objectID: String, config: JSONValue)] {
        var list: [(String, String, JSONValue)] = [
            ("light", "show", config("show", name: "Light show", [
                "schema": "json",
                "command_topic": .string(topics.lightCommand),
                "state_topic": .string(topics.lightState),
                "brightness": true,
                "brightness_scale": 255,
                "supported_color_modes": ["rgb"],
                "icon": "mdi:led-strip-variant",
            ])),
            ("switch", "playing", config("playing", name: "Playing", [
                "command_topic": .string(topics.playCommand),
                "state_topic": .string(topics.playState),
                "payload_on": "ON",
                "payload_off": "OFF",
                "icon": "mdi:play-pause",
            ])),
            ("select", "input", config("input", name: "Input", [
                "command_topic": .string(topics.inputCommand),
                "state_topic": .string(topics.inputState),
                "options": .array(inputs.map { .string($0) }),
                "icon": "mdi:audio-input-stereo-minijack",
            ])),
            ("sensor", "title", config("title", name: "Title", [
                "state_topic": .string(topics.title),
                "icon": "mdi:music",
            ])),
            ("sensor", "state", config("state", name: "State", [
                "state_topic": .string(topics.state),
                "device_class": "enum",
                "options": .array(PlaybackState.allCases.map { .string($0.rawValue) }),
            ])),
            ("button", "reload", config("reload", name: "Reload configuration", [
                "command_topic": .string(topics.reloadCommand),
                "payload_press": "PRESS",
                "icon": "mdi:reload",
            ])),
        ]
        for band in Band.allCases {
            list.append(("sensor", "level_\(band.rawValue)", config("level_\(band.rawValue)", name: "\(band.rawValue.prefix(1).uppercased() + band.rawValue.dropFirst()) level", [
                "state_topic": .string(topics.level(band)),
                "unit_of_measurement": "%",
                "state_class": "measurement",
                "icon": "mdi:equalizer",
            ])))
        }
        return list.map { component, objectID, config in (component, "\(device.identifier)_\(objectID)", config) }
    }

    private func config(_ objectID: String, name: String, _ specific: JSONObject) -> JSONValue {
        var object: JSONObject = [
            "name": .string(name),
            "unique_id": .string("\(device.identifier)_\(objectID)"),
            "availability_topic": .string(topics.availability),
            "payload_available": .string(HomeAssistantState.online),
            "payload_not_available": .string(HomeAssistantState.offline),
            "device": [
                "identifiers": [.string(device.identifier)],
                "name": .string(device.name),
                "model": .string(device.model),
                "manufacturer": "lightshow",
                "sw_version": .string(device.version),
            ],
            "origin": [
                "name": "lightshow",
                "sw_version": .string(device.version),
            ],
        ]
        for member in specific.members { object[member.key] = member.value }
        return .object(object)
    }
}
