import LightShowCore
import Testing
@testable import LightShowConfig

/// `[mqtt]`: the broker's forms, the topic prefixes, and every bad key reported with its path and line.
@Suite struct MQTTConfigTests {
    static func messages(_ toml: String) -> [String] {
        ConfigurationLoader.parse(toml).diagnostics.map { "\($0.line.map(String.init) ?? "-"): \($0.keyPath ?? "-"): \($0.message)" }
    }

    @Test func offUnlessABrokerIsSet() {
        #expect(!Configuration.defaults.mqtt.isEnabled)
        let report = ConfigurationLoader.parse("[mqtt]\nbroker = \"mqtt.lan\"\nbase_topic = \"house/den\"\n")
        #expect(report.diagnostics.isEmpty)
        #expect(report.configuration.mqtt.isEnabled)
        #expect(report.configuration.mqtt.resolvedBaseTopic(host: "x") == "house/den")
        #expect(Configuration.defaults.mqtt.resolvedBaseTopic(host: "den") == "lightshow/den")
        #expect(Configuration.defaults.mqtt.discoveryPrefix == "homeassistant")
    }

    @Test func brokerForms() {
        #expect(MQTTSettings.hostAndPort("mqtt.lan")! == ("mqtt.lan", 1883))
        #expect(MQTTSettings.hostAndPort("10.0.0.2:8883")! == ("10.0.0.2", 8883))
        #expect(MQTTSettings.hostAndPort("[::1]:1884")! == ("::1", 1884))
        #expect(MQTTSettings.hostAndPort("::1")! == ("::1", 1883))
        for bad in ["", "host:", "host:0", "host:65536", "host:x", "[::1", "[::1]x", ":1883"] {
            #expect(MQTTSettings.hostAndPort(bad) == nil, "\(bad)")
        }
    }

    @Test func badKeysNameTheirPathAndLine() {
        let problems = Self.messages("""
            [mqtt]
            broker = "bad host!:99999"
            password = "a"
            password_file = "/run/credentials/pw"
            tls = "yes"
            discovery_prefix = "home/#"
            base_topic = "/lightshow"
            client_id = "a\\u0007b"
            ca_file = "/etc/ca.pem"

            """)
        #expect(problems == [
            #"2: mqtt.broker: expected "HOST" or "HOST:PORT" (port 1-65535) such as "localhost:1883", found "bad host!:99999""#,
            "4: mqtt.password_file: set password or password_file, not both",
            "5: mqtt.tls: expected true or false, found a string",
            #"6: mqtt.discovery_prefix: expected a topic such as "lightshow/den" (levels joined by /, no + or #, no empty level), found "home/#""#,
            #"7: mqtt.base_topic: expected a topic such as "lightshow/den" (levels joined by /, no + or #, no empty level), found "/lightshow""#,
            "8: mqtt.client_id: control characters are not allowed",
            "9: mqtt.ca_file: is used only with tls = true; ignored",
        ])
    }

    @Test func theMasterBrightnessIsBetweenZeroAndOne() {
        #expect(ConfigurationLoader.parse("[scene]\nbrightness = 0.25\n").configuration.scene.brightness == 0.25)
        #expect(Self.messages("[scene]\nbrightness = 1.5\n") == ["2: scene.brightness: 1.5 is above the maximum 1"])
    }
}
