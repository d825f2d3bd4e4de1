import Foundation
import Testing
import TestSupport

/// `lightshow lights pair-hue` against a stand-in bridge (HTTPS with a self-signed certificate): it waits for the
/// link button, stores the keys and the pinned certificate with mode 0600, lists the areas, and refuses a bridge
/// whose certificate changed.
@Suite struct HuePairingCommandTests {
    @Test func pairsOnceTheLinkButtonIsPressedAndPinsTheCertificate() async throws {
        let bridge = try HueBridge(linkButtonAfter: 2)
        let state = try TemporaryDirectory("ls-hue-state")
        let environment = ["STATE_DIRECTORY": state.path]
        let paired = try await LightshowProcess.runDetached(["lights", "pair-hue", bridge.address], environment: environment)
        #expect(paired.status == 0, "\(paired.stderr) \(bridge.log)")
        #expect(paired.stdout.contains("Press the link button on the Hue bridge at \(bridge.address)"), "\(paired.stdout)")
        #expect(bridge.events.filter { $0.method == "POST" && $0.path == "/api" }.count == 3, "two refusals, then the keys")
        #expect(bridge.events.contains { $0.path == "/auth/v1" && $0.authorised }, "the application id asked with the key")

        // The areas with their channels, positions and the band each follows.
        #expect(paired.stdout.contains("\"Living room\" id \(HueBridge.areaID): 3 channels"), "\(paired.stdout)")
        #expect(paired.stdout.contains("channel 0 at (-0.80, 0.50, 0.00) -> bass"), "\(paired.stdout)")
        #expect(paired.stdout.contains("channel 1 at (0.00, 1.00, 0.00) -> mid"), "\(paired.stdout)")
        #expect(paired.stdout.contains("channel 2 at (0.80, 0.50, 0.00) -> treble"), "\(paired.stdout)")

        // The pairing: owner-only, with the keys, the application id and the certificate's fingerprint.
        let file = state.file("hue/127.0.0.1_\(bridge.port).json")
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let stored = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: String])
        #expect(stored["application_key"] == HueBridge.applicationKey)
        #expect(stored["client_key"] == HueBridge.clientKey)
        #expect(stored["application_id"] == HueBridge.applicationID)
        #expect(stored["certificate_sha256"] == (try bridge.certificateSHA256()))
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.file("hue")) == ["127.0.0.1_\(bridge.port).json"])

        // Pairing again with the same bridge works; a bridge with a new certificate at that address is refused.
        let again = try await LightshowProcess.runDetached(["lights", "pair-hue", bridge.address], environment: environment)
        #expect(again.status == 0, "\(again.stderr)")
        let before = bridge.events.count
        bridge.stop()
        try bridge.makeCertificate()
        try bridge.start(port: bridge.port)
        let changed = try await LightshowProcess.runDetached(["lights", "pair-hue", bridge.address], environment: environment)
        #expect(changed.status != 0)
        #expect(changed.stderr.contains("certificate") && changed.stderr.contains("delete \(file) and pair again"), "\(changed.stderr)")
        #expect(bridge.events.count == before, "nothing is sent to a bridge whose certificate doesn't match")
        let kept = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: String])
        #expect(kept == stored, "the pinned pairing stays as it was")
    }

    @Test func aBridgeThatIsNotThereOrABadAddressIsReported() async throws {
        let state = try TemporaryDirectory("ls-hue-state")
        let port = try MPDServer.freePort()
        let missing = try await LightshowProcess.runDetached(["lights", "pair-hue", "127.0.0.1:\(port)"], environment: ["STATE_DIRECTORY": state.path])
        #expect(missing.status == 74 && missing.stderr.contains("cannot reach the Hue bridge at 127.0.0.1:\(port)"), "\(missing.stderr)")
        let bad = try await LightshowProcess.runDetached(["lights", "pair-hue", "http://x/"], environment: ["STATE_DIRECTORY": state.path])
        #expect(bad.status == 64 && bad.stderr.contains("expected the bridge as HOST or HOST:PORT"), "\(bad.stderr)")
    }
}

/// `config check` with Hue outputs: a bridge never paired, an area the bridge doesn't have and a channel the area
/// doesn't have are errors named by key path; a good entry is OK.
@Suite struct HueConfigCheckTests {
    @Test func pairingAreaAndChannelsAreChecked() async throws {
        let bridge = try HueBridge()
        let state = try TemporaryDirectory("ls-hue-state")
        let environment = ["STATE_DIRECTORY": state.path]
        let config = { (area: String, channels: String) in
            Data("[[lights]]\nprotocol = \"hue\"\naddress = \"\(bridge.address)\"\narea = \"\(area)\"\n\(channels)\n".utf8)
        }
        let file = try state.write("hue.toml", config("Living room", "channels = { 2 = \"bass\" }"))

        let unpaired = try await LightshowProcess.runDetached(["config", "check", file], environment: environment)
        #expect(unpaired.status == 78, "\(unpaired.stdout)")
        #expect(unpaired.stdout.contains("error: lights[1]: not paired with the Hue bridge at \(bridge.address): run `lightshow lights pair-hue \(bridge.address)`"), "\(unpaired.stdout)")

        let paired = try await LightshowProcess.runDetached(["lights", "pair-hue", bridge.address], environment: environment)
        #expect(paired.status == 0, "\(paired.stderr)")
        let good = try await LightshowProcess.runDetached(["config", "check", file], environment: environment)
        #expect(good.status == 0 && good.stdout.contains("\(file): OK"), "\(good.stdout)")

        _ = try state.write("hue.toml", config("Kitchen", "channels = { 7 = \"bass\" }"))
        let unknownArea = try await LightshowProcess.runDetached(["config", "check", file], environment: environment)
        #expect(unknownArea.status == 78, "\(unknownArea.stdout)")
        #expect(unknownArea.stdout.contains("error: lights[1].area: the bridge at \(bridge.address) has no entertainment area \"Kitchen\" (it has: \"Living room\")"), "\(unknownArea.stdout)")

        _ = try state.write("hue.toml", config("Living room", "channels = { 7 = \"bass\" }"))
        let unknownChannel = try await LightshowProcess.runDetached(["config", "check", file], environment: environment)
        #expect(unknownChannel.status == 78, "\(unknownChannel.stdout)")
        #expect(unknownChannel.stdout.contains("error: lights[1].channels.7: area \"Living room\" has no channel 7 (it has 0, 1, 2)"), "\(unknownChannel.stdout)")
    }
}

/// `lights test` with a Hue output lights the area's channels one at a time, as the bridge lists them, then black.
@Suite struct HueLightsTestCommandTests {
    @Test func eachChannelLightsInTurn() async throws {
        let bridge = try HueBridge()
        let peer = try DTLSPeer()
        let state = try TemporaryDirectory("ls-hue-state")
        let environment = ["STATE_DIRECTORY": state.path]
        let paired = try await LightshowProcess.runDetached(["lights", "pair-hue", bridge.address], environment: environment)
        #expect(paired.status == 0, "\(paired.stderr)")
        let file = try state.write("hue.toml", Data("""
            [[lights]]
            protocol = "hue"
            address = "\(bridge.address)"
            area = "Living room"
            stream_port = \(peer.port)

            """.utf8))
        let run = try await LightshowProcess.runDetached(["lights", "test", "--config", file, "--step", "400ms"], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("lights[1] bass (channel 0 at x -0.80): colour"), "\(run.stdout)")
        #expect(run.stdout.contains("lights[1] treble (channel 2 at x 0.80): white #FFFFFF"), "\(run.stdout)")

        // Which channels each message lights, in order, repeats folded: one channel at a time, left to right.
        let lit = peer.messages.map { message in message.channels.filter { $0.value.contains { $0 > 0 } }.keys.sorted() }
        var turns: [[UInt8]] = []
        for channels in lit where !channels.isEmpty && turns.last != channels { turns.append(channels) }
        #expect(turns == [[0], [1], [2]], "\(turns)")
        #expect(peer.messages.last?.isBlack == true, "black at the end")
        #expect(bridge.areaActions == ["start", "stop"], "\(bridge.areaActions)")
    }
}
