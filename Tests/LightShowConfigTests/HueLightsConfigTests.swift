import LightShowCore
import Testing
@testable import LightShowConfig

/// `protocol = "hue"` entries: the bridge as HOST[:PORT], the area, the stream port and bands by channel.
@Suite struct HueLightsConfigTests {
    func diagnostics(_ toml: String) -> [String] {
        ConfigurationLoader.parse(toml).diagnostics.map { $0.formatted(file: "f.toml") }
    }

    @Test func aHueEntryWithItsDefaults() throws {
        let report = ConfigurationLoader.parse("""
        [[lights]]
        protocol = "hue"
        address = "192.168.1.30"
        area = "Living room"
        """)
        #expect(report.diagnostics == [])
        let hue = try #require(report.configuration.lights.first)
        #expect(hue.networkProtocol == .hue && hue.address == "192.168.1.30" && hue.port == 443)
        #expect(hue.area == "Living room" && hue.streamPort == 2100 && hue.channelBands.isEmpty)
        #expect(hue.framesPerSecond == 50 && hue.gamma == 1 && hue.brightness == 1)
    }

    @Test func aPortInTheAddressAChosenStreamPortAndChannels() throws {
        let report = ConfigurationLoader.parse("""
        [[lights]]
        protocol = "hue"
        address = "bridge.local:8443"
        area = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"
        stream_port = 12100
        channels = { 0 = "bass", 3 = "treble" }
        delay = 80
        """)
        #expect(report.diagnostics == [])
        let hue = try #require(report.configuration.lights.first)
        #expect(hue.address == "bridge.local" && hue.port == 8443 && hue.streamPort == 12100)
        #expect(hue.channelBands == [0: .bass, 3: .treble] && hue.delayMilliseconds == 80)
    }

    @Test func badHueEntriesAreNamedByKey() {
        let found = diagnostics("""
        [[lights]]
        protocol = "hue"
        address = "bridge:x"
        channels = { 0 = "loud", 25 = "bass" }
        universe = 3
        """)
        #expect(found.contains { $0.contains("lights[1].address") && $0.contains("HOST:PORT") }, "\(found)")
        #expect(found.contains { $0.contains("lights[1].area") && $0.contains("required for hue") }, "\(found)")
        #expect(found.contains { $0.contains("lights[1].channels.0") && $0.contains("\"bass\", \"mid\" or \"treble\"") }, "\(found)")
        #expect(found.contains { $0.contains("warning: lights[1].channels.25: unknown key") }, "\(found)")
        #expect(found.contains { $0.contains("warning: lights[1].universe: unknown key") }, "\(found)")
        #expect(ConfigurationLoader.parse("[[lights]]\nprotocol = \"hue\"\naddress = \"b\"\n").configuration.lights.isEmpty)
    }
}
