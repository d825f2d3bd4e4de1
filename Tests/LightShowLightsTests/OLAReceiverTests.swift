import Foundation
import Testing
import TestSupport

/// sACN and Art-Net from the real `lightshow` executable, run inside the namespace, at a real OLA (README, "Real lights").
@Suite(.tags(.ola), .enabled(if: OLAReceiver.isUsable, "needs root, iproute2, ola and ola-python"))
struct OLAReceiverTests {
    /// Universe 1 by sACN multicast out of the veth, universe 2 by Art-Net to 127.0.0.1 (port address 2).
    static func config(port: Int = 6454) -> String {
        """
        [bands.bass]
        color = "#FF0000"
        [bands.mid]
        color = "#00FF00"
        [bands.treble]
        color = "#0000FF"

        [[lights]]
        protocol = "sacn"
        universe = 1
        interface = "10.231.0.1"
        source_name = "lightshow test"

        [[lights]]
        protocol = "artnet"
        address = "127.0.0.1"
        port = \(port)
        universe = 2

        """
    }

    static let black = [Int](repeating: 0, count: 9)

    /// The fixture of `band` lit in `rgb`, the other two dark.
    static func lit(_ band: Int, _ rgb: [Int]) -> [Int] {
        var channels = black
        channels.replaceSubrange(band * 3..<band * 3 + 3, with: rgb)
        return channels
    }

    static var walk: [[Int]] {
        [lit(0, [255, 0, 0]), lit(0, [255, 255, 255]), lit(1, [0, 255, 0]), lit(1, [255, 255, 255]),
         lit(2, [0, 0, 255]), lit(2, [255, 255, 255])]
    }

    @Test func lightsTestLightsEachFixtureInTurnThenEndsTheStream() throws {
        let ola = try OLAReceiver()
        let config = try ola.directory.write("lights.toml", Data(Self.config().utf8))
        try ola.startMonitor(universes: [1, 2])
        let state = ola.directory.file("state")
        try ola.run(
            [LightshowProcess.executableURL.path, "lights", "test", "--config", config, "--step", "400ms"],
            environment: ["XDG_STATE_HOME": state]
        )
        // The stream-terminated packets reach olad last; wait for its log line, with our persistent CID.
        let cid = try String(contentsOfFile: state + "/lightshow/cid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Wait.until(timeout: 5) { ola.log().lowercased().contains("cid \(cid) sent a termination for universe 1") }, "\(ola.log())")
        _ = Wait.until(timeout: 2) { ola.states(of: 2, channels: 9).last == Self.black && ola.states(of: 2, channels: 9).count > 6 }

        // sACN, universe 1: each band's fixture goes up alone (colour, then white), then everything goes dark
        // while the Art-Net output takes its turn, and stays dark.
        #expect(ola.states(of: 1, channels: 9) == Self.walk + [Self.black])
        // Art-Net, universe 2: dark during the sACN output's turn, then the same walk, then black at the end.
        #expect(ola.states(of: 2, channels: 9) == [Self.black] + Self.walk + [Self.black])
    }

    @Test func aToneBurstPerBandLightsThatBandsFixtureThenTheStopEndsTheStream() async throws {
        let ola = try OLAReceiver()
        let config = try ola.directory.write("lights.toml", Data(Self.config().utf8))
        // 1 s bursts at 100 Hz, 1 kHz and 8 kHz with 0.4 s of silence between, analysed by the real analyzer.
        let dir = ola.directory
        for (name, frequency) in [("bass", 100), ("mid", 1000), ("treble", 8000)] {
            try await ExternalTool.runDetached("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", dir.file("\(name).wav"), "synth", "1", "sine", String(frequency), "vol", "0.5"])
        }
        try await ExternalTool.runDetached("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", dir.file("gap.wav"), "trim", "0", "0.4"])
        try await ExternalTool.runDetached("sox", ["bass.wav", "gap.wav", "mid.wav", "gap.wav", "treble.wav"].map(dir.file) + [dir.file("bursts.wav")])
        let analysis = try await LightshowProcess.runDetached(["analyze", "--input", dir.file("bursts.wav"), "--format", "jsonl", "--fps", "44"])
        try #require(analysis.status == 0, "\(analysis.stderr)")
        let levels = try dir.write("levels.jsonl", Data(analysis.stdout.utf8))

        try ola.startMonitor(universes: [1, 2])
        // Those levels, frame by frame at 44 fps, then the engine's stop at the end of the file.
        let output = try ola.run([LightshowProcess.executableURL.path, "lights", "measure", "--config", config, "--fps", "44", "--levels", levels])
        #expect(output.hasSuffix("# stopped: every stream ended\n"), "\(output.suffix(200))")
        #expect(Wait.until(timeout: 5) { ola.log().contains("sent a termination for universe 1") }, "\(ola.log())")
        _ = Wait.until(timeout: 2) { ola.states(of: 2, channels: 9).last == Self.black }

        for universe in [1, 2] {
            let states = ola.states(of: universe, channels: 9)
            // A band's burst: its fixture bright (red, green, blue channel), the other two low (level ≤ 0.1).
            func alone(_ band: Int) -> Int? {
                let channel = [0, 4, 8][band]
                return states.firstIndex { state in
                    state[channel] >= 200 && [0, 4, 8].filter { $0 != channel }.allSatisfy { state[$0] <= 26 }
                }
            }
            let firsts = (0..<3).map(alone)
            #expect(firsts.allSatisfy { $0 != nil }, "universe \(universe): \(firsts) in \(states)")
            #expect(firsts.compactMap { $0 } == firsts.compactMap { $0 }.sorted(), "bursts in order: \(firsts)")
            #expect(states.last == Self.black, "universe \(universe) ended at \(states.last ?? [])")
        }
    }
}
