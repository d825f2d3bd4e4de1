import LightShowControl
import LightShowCore
import LightShowMQTT
import Testing

@Suite struct HomeAssistantStateTests {
    static let topics = HomeAssistantTopics(base: "lightshow/den", discoveryPrefix: "homeassistant")

    static func texts(_ messages: [MQTTMessage]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: messages.map { ($0.topic, String(decoding: $0.payload, as: UTF8.self)) })
    }

    @Test func aPlayingShowIsAnOnLightAndAnOnSwitch() throws {
        let state = HomeAssistantState(
            state: .playing, title: "Artist – Song\u{1B}[2J", input: "demo", brightness: 0.5, color: RGBColor(red: 255, green: 59, blue: 48)
        )
        let messages = state.messages(Self.topics)
        #expect(messages.allSatisfy { $0.retain })
        let texts = Self.texts(messages)
        let lightText = try #require(texts["lightshow/den/light/state"])
        let light = try JSONParser.parse(Array(lightText.utf8))
        #expect(light["state"] == "ON")
        #expect(light["brightness"]?.numberValue == 128)
        #expect(light["color_mode"] == "rgb")
        #expect(light["color"] == ["r": 255, "g": 59, "b": 48])
        #expect(texts["lightshow/den/play/state"] == "ON")
        #expect(texts["lightshow/den/state"] == "playing")
        #expect(texts["lightshow/den/input/state"] == "demo")
        #expect(texts["lightshow/den/title"]?.unicodeScalars.contains { $0.value == 0x1B } == false, "control characters removed")
    }

    @Test func pausedIsAnOnLightButAnOffSwitchAndStoppedIsOff() {
        let paused = Self.texts(HomeAssistantState(state: .paused, title: "", input: "demo", brightness: 1, color: .init(red: 0, green: 0, blue: 0)).messages(Self.topics))
        #expect(paused["lightshow/den/play/state"] == "OFF")
        #expect(paused["lightshow/den/light/state"]?.contains(#""state":"ON""#) == true)
        let stopped = Self.texts(HomeAssistantState(state: .stopped, title: "", input: "demo", brightness: 1, color: .init(red: 0, green: 0, blue: 0)).messages(Self.topics))
        #expect(stopped["lightshow/den/light/state"]?.contains(#""state":"OFF""#) == true)
    }

    @Test func levelsArePercentsClampedAndNotRetained() {
        let messages = HomeAssistantState.levelMessages(BandLevels(bass: 0.424, mid: .nan, treble: 7), Self.topics)
        #expect(messages.allSatisfy { !$0.retain })
        #expect(Self.texts(messages) == ["lightshow/den/level/bass": "42", "lightshow/den/level/mid": "0", "lightshow/den/level/treble": "100"])
    }
}
