import Foundation
import Testing
import TestSupport

/// sACN and Art-Net from the real `lightshow` executable, run inside the namespace, at a real OLA (DESIGN.md §11).
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

    @Test func aStopFadesToZeroAndEndsTheSACNStream() throws {
        let ola = try OLAReceiver()
        let config = try ola.directory.write("lights.toml", Data(Self.config().utf8))
        try ola.startMonitor(universes: [1, 2])
        // Frames with only bass up (level i/255 for frame i), for 1.5 s; then the engine's stop (a 0.5 s fade)
        // and nothing more.
        let output = try ola.run([
            LightshowProcess.executableURL.path, "lights", "measure", "--config", config,
            "--fps", "44", "--seconds", "3", "--stop-after", "1.5",
        ])
        #expect(output.hasSuffix("# stopped: every stream ended\n"), "\(output.suffix(200))")
        #expect(Wait.until(timeout: 5) { ola.log().contains("sent a termination for universe 1") }, "\(ola.log())")
        for universe in [1, 2] {
            let states = ola.states(of: universe, channels: 9)
            #expect(states.count > 10, "universe \(universe): \(states.count) states")
            // Bass (channel 1: red) climbed with the frame count (about 66 frames: up to 66/255) and faded;
            // mid and treble stayed dark throughout.
            #expect(states.contains { $0[0] >= 55 }, "universe \(universe): \(states.map { $0[0] })")
            #expect(states.allSatisfy { $0[3...].allSatisfy { $0 == 0 } })
            #expect(states.last == Self.black, "universe \(universe) ended at \(states.last ?? [])")
        }
    }
}
