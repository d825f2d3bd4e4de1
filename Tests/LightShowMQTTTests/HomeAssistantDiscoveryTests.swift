import LightShowControl
import LightShowCore
import LightShowMQTT
import Testing

/// The configs carry what Home Assistant's MQTT platforms require, with the documented types: every platform its
/// command or state topic, the light `schema: json` with brightness and an RGB colour mode, the select its options;
/// all of them `unique_id`, the device block, the origin and the availability topic.
@Suite struct HomeAssistantDiscoveryTests {
    static let topics = HomeAssistantTopics(base: "lightshow/den", discoveryPrefix: "homeassistant")
    static let discovery = HomeAssistantDiscovery(
        topics: topics, device: HomeAssistantDevice(host: "den.local", version: "0.1.0"), inputs: ["demo", "alsa:default", "pulse"]
    )

    /// Each config parsed back from the bytes that go on the wire, by component.
    static func configs() throws -> [(topic: String, component: String, config: JSONValue)] {
        try discovery.messages.map { message in
            let parts = message.topic.split(separator: "/")
            #expect(message.retain == true, "\(message.topic) is retained")
            return (message.topic, String(parts[1]), try JSONParser.parse(message.payload))
        }
    }

    @Test func everyConfigHasTheCommonFieldsAndATopicOfTheDocumentedForm() throws {
        let configs = try Self.configs()
        #expect(configs.count == 9)
        var uniqueIDs = Set<String>()
        for (topic, component, config) in configs {
            let parts = topic.split(separator: "/", omittingEmptySubsequences: false)
            #expect(parts.count == 4 && parts[0] == "homeassistant" && parts[3] == "config", "\(topic)")
            #expect(["light", "switch", "select", "sensor", "button"].contains(component), "\(topic)")
            #expect(parts[2].allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }, "object id of \(topic)")
            guard let uniqueID = config["unique_id"]?.stringValue else {
                Issue.record("\(topic): unique_id must be a string")
                continue
            }
            uniqueIDs.insert(uniqueID)
            #expect(config["name"]?.stringValue != nil, "\(topic) name")
            #expect(config["availability_topic"]?.stringValue == "lightshow/den/availability", "\(topic)")
            let device = config["device"]
            guard case .array(let identifiers)? = device?["identifiers"] else {
                Issue.record("\(topic): device.identifiers must be a list")
                continue
            }
            #expect(identifiers == [.string("lightshow_den_local")], "\(topic)")
            #expect(device?["name"]?.stringValue == "lightshow on den.local")
            #expect(device?["model"]?.stringValue == "lightshow")
            #expect(device?["sw_version"]?.stringValue == "0.1.0")
            #expect(config["origin"]?["name"]?.stringValue == "lightshow", "\(topic) origin")
        }
        #expect(uniqueIDs.count == configs.count, "unique ids are distinct")
    }

    @Test func eachPlatformHasItsRequiredFields() throws {
        let configs = try Self.configs()
        func one(_ component: String) -> [JSONValue] { configs.filter { $0.component == component }.map(\.config) }

        let light = try #require(one("light").first)
        #expect(light["schema"]?.stringValue == "json")
        #expect(light["command_topic"]?.stringValue == "lightshow/den/light/set")
        #expect(light["state_topic"]?.stringValue == "lightshow/den/light/state")
        #expect(light["brightness"]?.boolValue == true)
        #expect(light["brightness_scale"]?.numberValue == 255)
        #expect(light["supported_color_modes"] == .array(["rgb"]))

        let toggle = try #require(one("switch").first)
        #expect(toggle["command_topic"]?.stringValue == "lightshow/den/play/set")
        #expect(toggle["state_topic"]?.stringValue == "lightshow/den/play/state")

        let select = try #require(one("select").first)
        #expect(select["command_topic"]?.stringValue == "lightshow/den/input/set")
        #expect(select["options"] == .array(["demo", "alsa:default", "pulse"]))

        let button = try #require(one("button").first)
        #expect(button["command_topic"]?.stringValue == "lightshow/den/reload/press")

        let sensors = one("sensor")
        #expect(sensors.count == 5)
        let stateTopics = sensors.compactMap { $0["state_topic"]?.stringValue }
        #expect(Set(stateTopics) == [
            "lightshow/den/title", "lightshow/den/state",
            "lightshow/den/level/bass", "lightshow/den/level/mid", "lightshow/den/level/treble",
        ])
        let state = try #require(sensors.first { $0["state_topic"]?.stringValue == "lightshow/den/state" })
        #expect(state["device_class"]?.stringValue == "enum")
        #expect(state["options"] == .array(["playing", "paused", "stopped"]))
    }

    @Test func aHostNameBecomesAValidObjectID() {
        #expect(HomeAssistantDevice(host: "my box.lan", version: "1").identifier == "lightshow_my_box_lan")
        #expect(HomeAssistantDevice.objectIDCharacters("") == "host")
    }
}
