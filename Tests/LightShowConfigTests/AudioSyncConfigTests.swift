import LightShowCore
import Testing
@testable import LightShowConfig

/// `protocol = "wled-sync"`: WLED's group and port by default, an interface for multicast as sACN has, and the
/// keys that place and colour lights reported as unused.
@Suite struct AudioSyncConfigTests {
    func diagnostics(_ toml: String) -> [String] {
        ConfigurationLoader.parse(toml).diagnostics.map { $0.formatted(file: "f.toml") }
    }

    @Test func defaultsAreWLEDsGroupPortAndFiftyPacketsASecond() throws {
        let report = ConfigurationLoader.parse("""
        [[lights]]
        protocol = "wled-sync"
        """)
        #expect(report.diagnostics == [])
        let entry = try #require(report.configuration.lights.first)
        #expect(entry.networkProtocol == .wledSync)
        #expect(entry.address == "239.0.0.1" && entry.port == 11988 && entry.framesPerSecond == 50)
        #expect(entry.interface == "" && entry.delayMilliseconds == 0)
        #expect(report.configuration.wantsSpectrumSummary)
        #expect(!ConfigurationLoader.parse("[[lights]]\nprotocol = \"ddp\"\naddress = \"a\"\npixels = 3").configuration.wantsSpectrumSummary)
    }

    @Test func aDeviceAddressInterfaceDelayAndRate() throws {
        let report = ConfigurationLoader.parse("""
        [[lights]]
        protocol = "wled-sync"
        address = "192.168.1.50"
        port = 21324
        interface = "192.168.1.10"
        delay = 40
        fps = 60
        name = "kitchen"
        """)
        #expect(report.diagnostics == [])
        let entry = try #require(report.configuration.lights.first)
        #expect(entry.address == "192.168.1.50" && entry.port == 21324 && entry.interface == "192.168.1.10")
        #expect(entry.delayMilliseconds == 40 && entry.framesPerSecond == 60 && entry.name == "kitchen")
    }

    @Test func keysForPicturesAreUnusedAndBadValuesAreErrors() {
        #expect(diagnostics("""
        [[lights]]
        protocol = "wled-sync"
        layout = "strip"
        universe = 3
        gamma = 2
        priority = 5
        """) == [
            "f.toml:3: warning: lights[1].layout: is not used by wled-sync (it sends the analysis, and the device draws its own effects); ignored",
            "f.toml:4: warning: lights[1].universe: is not used by wled-sync; ignored",
            "f.toml:5: warning: lights[1].gamma: is not used by wled-sync (it sends the analysis, and the device draws its own effects); ignored",
            "f.toml:6: warning: lights[1].priority: is used only by sacn; ignored",
        ])
        let errors = diagnostics("""
        [[lights]]
        protocol = "wled-sync"
        address = ""
        interface = "eth0"
        fps = 500
        """)
        #expect(errors.contains { $0.contains("lights[1].address: required for wled-sync") }, "\(errors)")
        #expect(errors.contains { $0.contains("lights[1].interface: expected the interface's IPv4 address") }, "\(errors)")
        #expect(errors.contains { $0.contains("lights[1].fps") }, "\(errors)")
        #expect(diagnostics("[[lights]]\nprotocol = \"ddp\"\naddress = \"a\"\npixels = 3\ninterface = \"10.0.0.1\"")
            == ["f.toml:5: warning: lights[1].interface: is used only by sacn and wled-sync; ignored"])
        #expect(diagnostics("[[lights]]\nprotocol = \"wled\"").contains {
            $0.contains("\"ddp\", \"sacn\", \"artnet\", \"wled-sync\" or \"hue\"")
        })
    }
}
