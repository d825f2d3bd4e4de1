import LightShowCore
import Testing
@testable import LightShowConfig

/// `[[lights]]`: good entries become settings with the protocol's defaults; bad ones are reported with their key
/// path (entries numbered from 1) and line, and left out.
@Suite struct LightsConfigTests {
    func diagnostics(_ toml: String) -> [String] {
        ConfigurationLoader.parse(toml).diagnostics.map { $0.formatted(file: "f.toml") }
    }

    @Test func goodEntriesWithTheirDefaults() throws {
        let report = ConfigurationLoader.parse("""
        [[lights]]
        protocol = "ddp"
        address = "wled.local"
        pixels = 150

        [[lights]]
        protocol = "sacn"
        universe = 2
        start = 10
        priority = 150
        source_name = "stage left"
        interface = "10.0.0.2"

        [[lights]]
        protocol = "artnet"
        address = "192.168.1.60"
        universe = 257
        layout = "strip"
        pixels = 20
        background = true
        fps = 30
        brightness = 0.5
        gamma = 1.8
        name = "bar"
        """)
        #expect(report.diagnostics == [])
        let lights = report.configuration.lights
        try #require(lights.count == 3)
        var ddp = LightOutputSettings(protocol: .ddp)
        ddp.address = "wled.local"
        ddp.pixels = 150
        #expect(lights[0] == ddp)
        #expect(lights[0].port == 4048 && lights[0].framesPerSecond == 60 && lights[0].gamma == 2.2 && lights[0].layout == .strip)
        #expect(lights[1].address == "" && lights[1].port == 5568 && lights[1].universe == 2 && lights[1].start == 10)
        #expect(lights[1].layout == .fixtures && lights[1].framesPerSecond == 44 && lights[1].gamma == 1)
        #expect(lights[1].priority == 150 && lights[1].sourceName == "stage left" && lights[1].interface == "10.0.0.2")
        #expect(lights[2].universe == 257 && lights[2].layout == .strip && lights[2].pixels == 20 && lights[2].background)
        #expect(lights[2].framesPerSecond == 30 && lights[2].brightness == 0.5 && lights[2].gamma == 1.8)
        #expect(lights[2].displayName(index: 3) == "bar" && lights[1].displayName(index: 2) == "lights[2]")
    }

    @Test func noLightsByDefault() {
        #expect(ConfigurationLoader.parse("").configuration.lights == [])
    }

    static let badCases: [(String, [String])] = [
        ("[[lights]]\nprotocol = \"ddp\"\naddress = \"a\"\npixels = 3\n[[lights]]\nprotocol = \"sacn\"\nuniverse = 70000\n",
         ["f.toml:7: error: lights[2].universe: 70000 is above the maximum 63999"]),
        ("[[lights]]\naddress = \"x\"\n",
         [#"f.toml:1: error: lights[1].protocol: required: "ddp", "sacn", "artnet", "wled-sync" or "hue""#]),
        ("[[lights]]\nprotocol = \"dmx\"\n",
         [#"f.toml:2: error: lights[1].protocol: expected "ddp", "sacn", "artnet", "wled-sync" or "hue", found "dmx""#]),
        ("[[lights]]\nprotocol = \"artnet\"\n",
         ["f.toml:1: error: lights[1].address: required for artnet: the light's host name or IP address"]),
        ("[[lights]]\nprotocol = \"artnet\"\naddress = \"10.0.0.9\"\nuniverse = 32768\n",
         ["f.toml:4: error: lights[1].universe: 32768 is above the maximum 32767"]),
        ("[[lights]]\nprotocol = \"sacn\"\nuniverse = 0\n",
         ["f.toml:3: error: lights[1].universe: 0 is below the minimum 1"]),
        ("[[lights]]\nprotocol = \"ddp\"\naddress = \"wled; rm -rf\"\npixels = 10\n",
         [#"f.toml:3: error: lights[1].address: expected a host name or IP address such as "wled.local" or "192.168.1.50""#]),
        ("[[lights]]\nprotocol = \"ddp\"\naddress = \"a\"\n",
         ["f.toml:1: error: lights[1].pixels: required for layout strip: the number of LEDs, 3..10000"]),
        ("[[lights]]\nprotocol = \"sacn\"\nlayout = \"strip\"\nstart = 400\npixels = 50\n",
         ["f.toml:5: error: lights[1].pixels: 50 is above the maximum 37"]),
        ("[[lights]]\nprotocol = \"sacn\"\nstart = 505\n",
         ["f.toml:3: error: lights[1].start: 505 leaves no room for three fixtures of three channels; the maximum is 504"]),
        ("[[lights]]\nprotocol = \"sacn\"\nfps = nan\nbrightness = 1.5\ngamma = 0\n",
         ["f.toml:3: error: lights[1].fps: expected a finite number, found nan",
          "f.toml:4: error: lights[1].brightness: 1.5 is above the maximum 1",
          "f.toml:5: error: lights[1].gamma: 0 is below the minimum 1"]),
        ("[[lights]]\nprotocol = \"sacn\"\nfps = 1e300\n",
         ["f.toml:3: error: lights[1].fps: 1e+300 is above the maximum 120"]),
        ("[[lights]]\nprotocol = \"sacn\"\npriority = 201\nsource_name = \"\(String(repeating: "x", count: 64))\"\ninterface = \"eth0\"\n",
         ["f.toml:3: error: lights[1].priority: 201 is above the maximum 200",
          "f.toml:4: error: lights[1].source_name: 64 bytes is above the maximum 63",
          #"f.toml:5: error: lights[1].interface: expected the interface's IPv4 address such as "192.168.1.10", found "eth0""#]),
        ("[[lights]]\nprotocol = \"sacn\"\nname = \"a\\u001b[2Jb\"\n",
         ["f.toml:3: error: lights[1].name: control characters are not allowed"]),
        ("[[lights]]\nprotocol = \"ddp\"\naddress = \"a\"\npixels = 9\nuniverse = 3\npriority = 10\n",
         ["f.toml:5: warning: lights[1].universe: is not used by ddp; ignored",
          "f.toml:6: warning: lights[1].priority: is used only by sacn; ignored"]),
        ("[[lights]]\nprotocol = \"sacn\"\npixels = 9\ncolour = 1\n",
         ["f.toml:3: warning: lights[1].pixels: is used only by layout strip; ignored",
          "f.toml:4: warning: lights[1].colour: unknown key"]),
        ("[[lights]]\nprotocol = \"sacn\"\n[[lights]]\nprotocol = \"artnet\"\naddress = \"n\"\n[[lights]]\nprotocol = \"sacn\"\nstart = 20\n",
         ["f.toml:6: error: lights[3].universe: universe 1 at this address is already sent by lights[1]; one [[lights]] per DMX universe"]),
        ("lights = 3\n", ["f.toml:1: error: lights: expected an array of tables ([[lights]]), found an integer"]),
        ("lights = [1]\n", ["f.toml:1: error: lights[1]: expected a table, found an integer"]),
        ("[lights]\nprotocol = \"ddp\"\n", ["f.toml:1: error: lights: expected an array of tables ([[lights]]), found a table"]),
    ]

    @Test(arguments: badCases)
    func badEntriesNameTheirKeyPath(toml: String, expected: [String]) {
        #expect(diagnostics(toml) == expected)
    }

    @Test func anEntryWithAnErrorIsLeftOutAndTheOthersKept() {
        let report = ConfigurationLoader.parse("""
        [[lights]]
        protocol = "sacn"
        [[lights]]
        protocol = "sacn"
        universe = 70000
        """)
        #expect(report.hasErrors)
        #expect(report.configuration.lights.count == 1)
    }

    @Test func tooManyEntries() {
        let toml = String(repeating: "[[lights]]\nprotocol = \"sacn\"\n", count: 65)
        #expect(diagnostics(toml) == ["f.toml:1: error: lights: 65 entries is above the maximum 64"])
    }

    @Test func largeNumbersNeverTrap() {
        #expect(diagnostics("[[lights]]\nprotocol = \"sacn\"\nuniverse = 9223372036854775807\nstart = -9223372036854775808\n") == [
            "f.toml:3: error: lights[1].universe: 9223372036854775807 is above the maximum 63999",
            "f.toml:4: error: lights[1].start: -9223372036854775808 is below the minimum 1",
        ])
    }
}
