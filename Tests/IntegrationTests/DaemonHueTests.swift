import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The daemon streams its show to a Hue entertainment area: a stand-in bridge (HTTPS) and a real DTLS 1.2 PSK peer
/// (`openssl s_server`) that decrypts what arrives. The area is started before the stream, HueStream 2.0 messages
/// come at 25 a second or more with moving colours, a stop sends black and stops the area, so does the daemon's
/// exit, a peer that goes away and comes back is streamed to again, and a wrong key or a taken area is reported
/// while the show and the other outputs go on; a reload keeps the stream or moves it.
/// Serialized: each runs a daemon at 60 fps, and the rate is the daemon's to keep, not the machine's.
@Suite(.serialized) struct DaemonHueTests {
    struct PairingFailed: Error {
        var output: String
    }

    /// A paired state directory for `bridge`.
    static func pair(_ bridge: HueBridge) async throws -> TemporaryDirectory {
        let state = try TemporaryDirectory("ls-hue-state")
        let paired = try await LightshowProcess.runDetached(["lights", "pair-hue", bridge.address], environment: ["STATE_DIRECTORY": state.path])
        guard paired.status == 0 else { throw PairingFailed(output: paired.stderr) }
        return state
    }

    /// What the process maps, read by streaming (a /proc file says it is empty until read).
    static func mappedFiles(_ pid: Int32) -> String {
        let data = FileHandle(forReadingAtPath: "/proc/\(pid)/maps")?.readDataToEndOfFile() ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func config(bridge: HueBridge, peer: DTLSPeer, extra: String = "") -> Data {
        Data("""
            [input]
            source = "demo"
            [[lights]]
            protocol = "hue"
            address = "\(bridge.address)"
            area = "Living room"
            stream_port = \(peer.port)
            name = "hue"
            \(extra)

            """.utf8)
    }

    static func start(_ bridge: HueBridge, _ peer: DTLSPeer, state: TemporaryDirectory, extra: String = "") async throws -> DaemonProcess {
        let directory = try TemporaryDirectory("ls-daemon-hue")
        let file = try directory.write("lightshow.toml", config(bridge: bridge, peer: peer, extra: extra))
        // The show changes 60 times a second, so the output's 50 messages a second all differ.
        let daemon = try DaemonProcess(["--config", file, "--fps", "60"], environment: ["STATE_DIRECTORY": state.path], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        return daemon
    }

    @Test func streamsTheShowAndSurvivesThePeerRestarting() async throws {
        let bridge = try HueBridge()
        let peer = try DTLSPeer()
        let state = try await Self.pair(bridge)
        let daemon = try await Self.start(bridge, peer, state: state)

        // The area is started, then the stream comes.
        let streaming = await OffPool.until(timeout: 30) { !peer.messages.isEmpty }
        #expect(streaming, "HueStream messages: \(daemon.log) \(peer.log)")
        #expect(bridge.areaActions.first == "start", "the area was started before the stream: \(bridge.areaActions)")

        // At least 25 messages a second, all HueStream 2.0 RGB for the area's three channels, with moving colours.
        let before = peer.messages.count
        let clock = ContinuousClock()
        let began = clock.now
        let hundred = await OffPool.until(timeout: 20) { peer.messages.count >= before + 100 }
        let elapsed = clock.now - began
        #expect(hundred && elapsed <= .seconds(4), "100 messages took \(elapsed)")
        let messages = peer.messages
        #expect(messages.allSatisfy { $0.major == 2 && $0.minor == 0 && $0.colorSpace == 0 && $0.areaID == HueBridge.areaID })
        #expect(messages.allSatisfy { Set($0.channels.keys) == [0, 1, 2] }, "\(messages.last.map { "\($0.channels)" } ?? "none")")
        let colours = Set(messages.suffix(50).map { message in [0, 1, 2].flatMap { message.channels[$0] ?? [] } })
        #expect(colours.count >= 5, "colours move: \(colours.count) distinct in the last 50")
        let sequences = messages.suffix(20).map(\.sequence)
        #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $1 == $0 &+ 1 }, "sequence numbers count up: \(sequences)")

        // The bridge goes away while playing: one line says so; back within 5 s of its return, and one line says so.
        peer.stop()
        #expect(await OffPool.until(timeout: 10) { daemon.log.contains("lost the stream to the Hue bridge") }, "\(daemon.log)")
        try peer.start()
        let restarted = clock.now
        let back = await OffPool.until(timeout: 5) { !peer.messages.isEmpty }
        #expect(back, "streaming again within 5 s of the peer's return (after \(clock.now - restarted)): \(daemon.log)")
        #expect(await OffPool.until(timeout: 5) { daemon.log.contains("streaming to the Hue bridge at \(bridge.address) again") }, "\(daemon.log)")
        #expect(daemon.log.components(separatedBy: "lost the stream").count == 2, "the loss is logged once: \(daemon.log)")

        // The daemon stops while playing: black goes out, then the area is stopped, then it exits.
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 15) == 0, "\(daemon.log)")
        #expect(peer.messages.last?.isBlack == true, "black last: \(peer.messages.last.map { "\($0.channels)" } ?? "none")")
        #expect(bridge.areaActions.last == "stop", "the area stopped at exit: \(bridge.areaActions)")
    }

    @Test func aStopSendsBlackAndStopsTheArea() async throws {
        let bridge = try HueBridge()
        let peer = try DTLSPeer()
        let state = try await Self.pair(bridge)
        let daemon = try await Self.start(bridge, peer, state: state)
        #expect(await OffPool.until(timeout: 30) { peer.messages.contains { !$0.isBlack } }, "lit messages: \(daemon.log)")
        // OpenSSL and libcurl are loaded for the Hue output (and only for it: see the next test).
        let maps = Self.mappedFiles(daemon.pid)
        #expect(maps.contains("libssl.so.3") && maps.contains("libcurl.so.4"), "libraries mapped for Hue")

        let stop = try await daemon.ctl(["stop"])
        #expect(stop.status == 0, "\(stop.stderr)")
        #expect(await OffPool.until(timeout: 15) { bridge.areaActions.last == "stop" }, "area stopped: \(bridge.areaActions) \(daemon.log)")
        #expect(peer.messages.last?.isBlack == true, "black before the stop: \(peer.messages.last.map { "\($0.channels)" } ?? "none")")
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 15) == 0, "\(daemon.log)")
    }

    @Test func aWrongKeyAndATakenAreaAreReportedWhileTheShowGoesOn() async throws {
        let bridge = try HueBridge()
        let wrongKey = try DTLSPeer(key: "fedcba9876543210fedcba9876543210")
        let receiver = try UDPReceiver()
        let state = try await Self.pair(bridge)
        try bridge.setOwner("other-app-id")
        let ddp = """
            [[lights]]
            protocol = "ddp"
            address = "127.0.0.1"
            port = \(receiver.port)
            layout = "strip"
            pixels = 3
            """
        let daemon = try await Self.start(bridge, wrongKey, state: state, extra: ddp)

        // Another application has the area: said once, retried.
        #expect(await OffPool.until(timeout: 15) { daemon.log.contains("another application (other-app-id) is streaming to area \"Living room\"") }, "\(daemon.log)")
        #expect(!bridge.areaActions.contains("start"), "no start while another application streams: \(bridge.areaActions)")
        // It lets go; the handshake then fails on the key, which is reported with the bridge and what to do.
        try bridge.setOwner(nil)
        let reported = await OffPool.until(timeout: 20) {
            daemon.log.contains("the Hue bridge at \(bridge.address)") && daemon.log.contains("refused the stream's key")
                && daemon.log.contains("pair again with `lightshow lights pair-hue \(bridge.address)`")
        }
        #expect(reported, "\(daemon.log)")
        #expect(wrongKey.messages.isEmpty, "nothing decrypts with the wrong key")
        // Meanwhile the DDP strip keeps getting frames and the daemon answers.
        receiver.reset()
        #expect(await OffPool.until(timeout: 10) { !ddpFrames(receiver.collect(timeout: 0.3)).isEmpty }, "the other output goes on")
        let status = try await daemon.ctl(["status"])
        #expect(status.status == 0 && daemon.isRunning, "\(status.stderr)")
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 15) == 0, "\(daemon.log)")
    }

    @Test func aDaemonWithoutHueMapsNeitherLibrary() async throws {
        let receiver = try UDPReceiver()
        let directory = try TemporaryDirectory("ls-daemon-no-hue")
        let file = try directory.write("lightshow.toml", Data("""
            [input]
            source = "demo"
            [[lights]]
            protocol = "ddp"
            address = "127.0.0.1"
            port = \(receiver.port)
            pixels = 3

            """.utf8))
        let daemon = try DaemonProcess(["--config", file], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        #expect(await OffPool.until(timeout: 30) { !ddpFrames(receiver.collect(timeout: 0.2)).isEmpty }, "the show runs")
        let maps = Self.mappedFiles(daemon.pid)
        #expect(maps.contains("libc.so.6"), "the maps were read")
        #expect(!maps.contains("libssl") && !maps.contains("libcurl") && !maps.contains("libcrypto.so"), "no TLS library without Hue")
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 15) == 0, "\(daemon.log)")
    }

    @Test func aReloadKeepsTheStreamOrMovesItToTheNewArea() async throws {
        let bridge = try HueBridge()
        let peer = try DTLSPeer()
        let state = try await Self.pair(bridge)
        let daemon = try await Self.start(bridge, peer, state: state)
        #expect(await OffPool.until(timeout: 30) { peer.messages.count > 20 }, "streaming: \(daemon.log)")

        // Only the brightness changes: the same stream carries on, the area is not started again.
        let file = daemon.directory.file("lightshow.toml")
        try Self.config(bridge: bridge, peer: peer, extra: "brightness = 0.5").write(to: URL(fileURLWithPath: file))
        let kept = try await daemon.ctl(["reload"])
        #expect(kept.status == 0, "\(kept.stderr)")
        let before = peer.messages.count
        #expect(await OffPool.until(timeout: 10) { peer.messages.count > before + 20 }, "still streaming: \(daemon.log)")
        #expect(bridge.areaActions == ["start"], "\(bridge.areaActions)")

        // Another area (one the bridge doesn't have): the old stream stops its area, the new output says why it can't start.
        try Data(String(decoding: Self.config(bridge: bridge, peer: peer), as: UTF8.self)
            .replacingOccurrences(of: "Living room", with: "Kitchen").utf8).write(to: URL(fileURLWithPath: file))
        let moved = try await daemon.ctl(["reload"])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(await OffPool.until(timeout: 10) { bridge.areaActions.last == "stop" }, "\(bridge.areaActions) \(daemon.log)")
        #expect(await OffPool.until(timeout: 10) { daemon.log.contains("has no entertainment area \"Kitchen\"") }, "\(daemon.log)")
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 15) == 0, "\(daemon.log)")
    }
}
