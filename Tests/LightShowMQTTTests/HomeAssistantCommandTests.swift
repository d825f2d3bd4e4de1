import LightShowControl
import LightShowCore
import LightShowMQTT
import Testing

@Suite struct HomeAssistantCommandTests {
    static let topics = HomeAssistantTopics(base: "lightshow/den", discoveryPrefix: "homeassistant")

    static func parse(_ topic: String, _ text: String) -> Result<HomeAssistantCommand, HomeAssistantCommand.Invalid> {
        HomeAssistantCommand.parse(MQTTMessage(topic: topic, text: text), topics: topics)
    }

    static func commands(_ topic: String, _ text: String) -> [String] {
        guard case .success(.control(let requests)) = parse(topic, text) else { return [] }
        return requests.map { request in
            ([request.command.rawValue] + request.arguments.members.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
        }
    }

    @Test func theSwitchPlaysAndPauses() {
        #expect(Self.commands("lightshow/den/play/set", "ON") == ["play"])
        #expect(Self.commands("lightshow/den/play/set", "OFF") == ["pause"])
    }

    @Test func theLightTurnsTheShowOnAndOffWithBrightnessAndColourFirst() {
        #expect(Self.commands("lightshow/den/light/set", #"{"state":"OFF"}"#) == ["stop"])
        #expect(Self.commands("lightshow/den/light/set", #"{"state":"ON","brightness":128,"color":{"r":255,"g":0,"b":16}}"#) == [
            ##"set-color color="#FF0010""##, "set-brightness brightness=\(128.0 / 255)", "play",
        ])
        #expect(Self.commands("lightshow/den/light/set", #"{"brightness":0}"#) == ["set-brightness brightness=0"])
    }

    @Test func theSelectAndTheButton() {
        #expect(Self.commands("lightshow/den/input/set", "pulse") == [#"set-input input="pulse""#])
        #expect(Self.commands("lightshow/den/reload/press", "PRESS") == ["reload"])
        #expect(Self.parse("homeassistant/status", "online") == .success(.homeAssistantOnline))
        #expect(Self.parse("homeassistant/status", "offline") == .success(.none))
    }

    @Test func badMessagesAreErrorsThatNameTheTopic() throws {
        let cases: [(String, String, String)] = [
            ("lightshow/den/light/set", "{not json", "invalid JSON"),
            ("lightshow/den/light/set", "[1]", "JSON object"),
            ("lightshow/den/light/set", #"{"brightness":300}"#, "0-255"),
            ("lightshow/den/light/set", #"{"brightness":"1e999"}"#, "0-255"),
            ("lightshow/den/light/set", #"{"color":{"r":1,"g":2}}"#, "color"),
            ("lightshow/den/light/set", #"{"state":"MAYBE"}"#, "ON"),
            ("lightshow/den/light/set", "{}", "state"),
            ("lightshow/den/play/set", "on", "ON"),
            ("lightshow/den/reload/press", "", "PRESS"),
            ("lightshow/den/input/set", String(repeating: "x", count: 600), "at most"),
            ("lightshow/den/other", "x", "not a topic"),
        ]
        for (topic, payload, expected) in cases {
            guard case .failure(let invalid) = Self.parse(topic, payload) else {
                Issue.record("\(topic) \(payload.prefix(40)) was accepted")
                continue
            }
            #expect(invalid.message.contains(topic) && invalid.message.contains(expected), "\(invalid.message)")
        }
        // Bytes that aren't UTF-8 are refused, not trapped on.
        let binary = HomeAssistantCommand.parse(MQTTMessage(topic: "lightshow/den/play/set", payload: [0xFF, 0xFE]), topics: Self.topics)
        #expect(throws: HomeAssistantCommand.Invalid.self) { try binary.get() }
    }
}
