import Foundation
import LightShowCore
import Testing
import TestSupport
@testable import LightShowLights

/// The real `lightshow lights test` against a receiver socket: the sequence a person would see.
@Suite struct LightsTestCommandTests {
    @Test func walksEveryBandInItsColourThenWhiteThenGoesBlack() async throws {
        let receiver = try UDPReceiver()
        let directory = try TemporaryDirectory()
        let config = try directory.write("lights.toml", Data("""
        [bands.mid]
        color = "#00FF00"

        [[lights]]
        protocol = "ddp"
        address = "127.0.0.1"
        port = \(receiver.port)
        layout = "fixtures"
        gamma = 1
        name = "desk"

        [[lights]]
        protocol = "ddp"
        address = "127.0.0.1"
        port = \(receiver.port)
        start = 101
        pixels = 6
        gamma = 1

        """.utf8))
        let result = try await LightshowProcess.runDetached(["lights", "test", "--config", config, "--step", "150ms"])
        #expect(result.status == 0, "\(result.stderr)")
        let datagrams = receiver.collect(timeout: 2) { ddpFrames($0).last.map { frame in frame.pixels.values.allSatisfy { $0 == [0, 0, 0] } && frame.pixels.count == 6 } ?? false }

        // What each output showed, in order, without repeats (keep-alives). Both send to one receiver: the
        // pixel offsets (1-3 and 101-106, counted from 0 here) tell them apart.
        var shown: [[String]] = [[], []]
        for frame in ddpFrames(datagrams) {
            guard let output = frame.pixels.keys.min().map({ $0 < 100 ? 0 : 1 }) else { continue }
            let lit = frame.pixels.sorted { $0.key < $1.key }.filter { $0.value != [0, 0, 0] }
            let text = lit.isEmpty ? "black" : lit.map { "\($0.key):\(RGBColor(red: $0.value[0], green: $0.value[1], blue: $0.value[2]).hex)" }.joined(separator: " ")
            if shown[output].last != text { shown[output].append(text) }
        }
        let red = RGBColor.defaultColor(for: .bass).hex, blue = RGBColor.defaultColor(for: .treble).hex
        // The first output walks its three fixtures, then stays black while the second walks its segments.
        #expect(shown[0] == ["0:\(red)", "0:#FFFFFF", "1:#00FF00", "1:#FFFFFF", "2:\(blue)", "2:#FFFFFF", "black"])
        #expect(shown[1] == [
            "black",
            "100:\(red) 101:\(red)", "100:#FFFFFF 101:#FFFFFF", "102:#00FF00 103:#00FF00", "102:#FFFFFF 103:#FFFFFF",
            "104:\(blue) 105:\(blue)", "104:#FFFFFF 105:#FFFFFF",
            "black",
        ])
        #expect(result.stdout.contains("desk bass (pixel 1): colour \(red)"))
        #expect(result.stdout.contains("lights[2] treble (pixels 105-106): white #FFFFFF"))
    }

    @Test func listPrintsWhatIsConfiguredWithoutSending() async throws {
        let receiver = try UDPReceiver()
        let directory = try TemporaryDirectory()
        let config = try directory.write("lights.toml", Data("""
        [[lights]]
        protocol = "sacn"
        universe = 258
        [[lights]]
        protocol = "artnet"
        address = "127.0.0.1"
        port = \(receiver.port)
        universe = 17
        layout = "strip"
        pixels = 30
        fps = 30
        """.utf8))
        let result = try await LightshowProcess.runDetached(["lights", "test", "--config", config, "--list"])
        #expect(result.status == 0)
        #expect(result.stdout == """
        lights[1]: sacn 239.255.1.2:5568 (multicast) universe 258, fixtures, 44 fps
        lights[2]: artnet 127.0.0.1:\(receiver.port) universe 17, strip of 30 pixels, 30 fps

        """)
        #expect(receiver.collect(timeout: 0.3).isEmpty)
    }

    @Test func noLightsIsAConfigError() async throws {
        let directory = try TemporaryDirectory()
        let config = try directory.write("empty.toml", Data("[input]\nsource = \"demo\"\n".utf8))
        let result = try await LightshowProcess.runDetached(["lights", "test", "--config", config])
        #expect(result.status == 78)
        #expect(result.stderr.contains("no [[lights]] configured in \(config)"))
    }
}
