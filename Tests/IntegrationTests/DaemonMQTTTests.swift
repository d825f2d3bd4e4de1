import Foundation
import LightShowControl
import LightShowMQTT
import LightShowSystem
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The daemon as Home Assistant sees it, against a real mosquitto: retained discovery configs and availability,
/// light/switch/select commands changing the running show as `ctl status` and a DDP receiver see it, the title
/// sensor following MPD, the last will on a kill, re-announcing after the broker restarts, and a hostile flood.
@Suite(.serialized) struct DaemonMQTTTests {
    static let base = "lightshow/test"

    static func config(broker: MosquittoBroker, lightsPort: Int? = nil, extra: String = "") -> Data {
        var text = """
            [input]
            source = "demo"
            [mqtt]
            broker = "127.0.0.1:\(broker.port)"
            base_topic = "\(base)"
            \(extra)

            """
        if let lightsPort {
            text += """
                [[lights]]
                protocol = "ddp"
                address = "127.0.0.1"
                port = \(lightsPort)
                layout = "fixtures"
                fps = 30

                """
        }
        return Data(text.utf8)
    }

    static func status(_ daemon: DaemonProcess) -> JSONValue? {
        (try? ControlClient(path: daemon.socketPath, timeoutSeconds: 30).request("status"))?["result"]
    }

    static func statusHolds(_ daemon: DaemonProcess, timeout: Double = 30, _ condition: @escaping @Sendable (JSONValue) -> Bool) async -> Bool {
        await OffPool.until(timeout: timeout) { status(daemon).map(condition) ?? false }
    }

    /// True once the retained payload on `topic` satisfies `condition` (it is published just after the change).
    static func retained(_ broker: MosquittoBroker, _ topic: String, timeout: Double = 30, _ condition: @escaping @Sendable (String) -> Bool) async -> Bool {
        await Wait.until(within: timeout) { ((try? await broker.message(topic, seconds: 2)) ?? nil).map(condition) ?? false }
    }

    /// True once nine discovery configs are retained. `online` goes out first and the configs after the daemon has
    /// listed its inputs (a sound server may take a second to answer), so they can still be on their way when a
    /// test has seen `online`; once they are retained, a subscription gets them all at once.
    static func announced(_ broker: MosquittoBroker) async -> Bool {
        ((try? await broker.messages("homeassistant/#", seconds: 30, count: 9)) ?? []).count == 9
    }

    /// DDP frames received in `seconds`, as the three fixtures' RGB.
    static func frames(_ receiver: UDPReceiver, seconds: Double) -> [[[UInt8]]] {
        receiver.reset()
        return ddpFrames(receiver.collect(timeout: seconds)).map { frame in
            frame.pixels.keys.sorted().compactMap { frame.pixels[$0] }
        }
    }

    @Test func commandsFromHomeAssistantDriveTheShow() async throws {
        let broker = try MosquittoBroker()
        let receiver = try UDPReceiver()
        let directory = try TemporaryDirectory("ls-daemon-mqtt")
        let file = try directory.write("lightshow.toml", Self.config(broker: broker, lightsPort: receiver.port))
        let daemon = try DaemonProcess(["--config", file], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")

        // Announced: availability online and nine retained configs.
        #expect(try await broker.message("\(Self.base)/availability", seconds: 15) == "online", "\(daemon.log)")
        #expect(await Self.announced(broker), "\(daemon.log)")
        let configs = try await broker.messages("homeassistant/#", seconds: 3)
        #expect(configs.count == 9, "\(configs.map(\.topic))")
        for config in configs {
            let parsed = try? JSONParser.parse(Array(config.payload.utf8))
            #expect(parsed?["unique_id"]?.stringValue != nil, "\(config.topic): \(config.payload.prefix(200))")
        }
        #expect(await Self.statusHolds(daemon) { $0["mqtt"]?["state"]?.stringValue == "connected" })

        // Light off = stop; on with a colour and full brightness = play in that colour.
        try await broker.publish("\(Self.base)/light/set", #"{"state":"OFF"}"#)
        #expect(await Self.statusHolds(daemon) { $0["state"]?.stringValue == "stopped" })
        #expect(await Self.retained(broker, "\(Self.base)/light/state") { $0.contains(#""state":"OFF""#) })
        try await broker.publish("\(Self.base)/light/set", #"{"state":"ON","brightness":255,"color":{"r":0,"g":0,"b":255}}"#)
        #expect(await Self.statusHolds(daemon) { status in
            status["state"]?.stringValue == "playing" && ["bass", "mid", "treble"].allSatisfy { status["bands"]?[$0]?["color"]?.stringValue == "#0000FF" }
        }, "\(String(describing: Self.status(daemon)))")
        let blue = await OffPool.until(timeout: 15) {
            let frames = Self.frames(receiver, seconds: 0.5)
            return frames.contains { $0.contains { $0[2] > 40 } } && frames.allSatisfy { $0.allSatisfy { $0[0] == 0 && $0[1] == 0 } }
        }
        #expect(blue, "the lights show blue only")

        // Brightness 0 scales every output to black while the show still plays.
        try await broker.publish("\(Self.base)/light/set", #"{"brightness":0}"#)
        #expect(await Self.statusHolds(daemon) { $0["brightness"]?.numberValue == 0 && $0["state"]?.stringValue == "playing" })
        let black = await OffPool.until(timeout: 15) {
            let frames = Self.frames(receiver, seconds: 0.5)
            return !frames.isEmpty && frames.allSatisfy { $0.allSatisfy { $0 == [0, 0, 0] } }
        }
        #expect(black, "brightness 0 darkens the lights")
        try await broker.publish("\(Self.base)/light/set", #"{"brightness":255}"#)
        #expect(await OffPool.until(timeout: 15) { Self.frames(receiver, seconds: 0.5).contains { $0.contains { $0[2] > 40 } } })

        // The switch pauses and plays.
        try await broker.publish("\(Self.base)/play/set", "OFF")
        #expect(await Self.statusHolds(daemon) { $0["state"]?.stringValue == "paused" })
        try await broker.publish("\(Self.base)/play/set", "ON")
        #expect(await Self.statusHolds(daemon) { $0["state"]?.stringValue == "playing" })

        // A flood of bad JSON, a 1 MB payload and 10,000 switch messages: the lights keep the rate they had before.
        let before = try await OffPool.run { ddpFrames({ receiver.reset(); return receiver.collect(timeout: 2) }()).count }
        let lines = try directory.write("flood", Data((0..<10_000).map { $0 % 2 == 0 ? "{bad json \($0)\n" : "[\($0)]\n" }.joined().utf8))
        let switches = try directory.write("switches", Data(String(repeating: "ON\n", count: 10_000).utf8))
        let big = try directory.write("big", Data(repeating: 0x7B, count: 1 << 20))
        async let during = OffPool.run { ddpFrames({ receiver.reset(); return receiver.collect(timeout: 2) }()).count }
        try await broker.publishLines("\(Self.base)/light/set", from: lines)
        try await broker.publishLines("\(Self.base)/play/set", from: switches)
        try await broker.publishFile("\(Self.base)/light/set", big)
        let duringFlood = try await during
        let after = try await OffPool.run { ddpFrames({ receiver.reset(); return receiver.collect(timeout: 2) }()).count }
        #expect(Double(duringFlood) >= Double(before) * 0.8 && Double(after) >= Double(before) * 0.8,
                "frames in 2 s: \(before) before, \(duringFlood) during, \(after) after the flood")
        #expect(daemon.isRunning)
        #expect(await Self.statusHolds(daemon) { $0["state"]?.stringValue == "playing" })
        let complaints = daemon.log.components(separatedBy: "\n").filter { $0.contains("\(Self.base)/light/set") }
        #expect(complaints.count <= 2, "a bad message is logged once, not per message: \(complaints.prefix(5))")

        // The select switches to one of the inputs it offers (ALSA's null device is on every machine); a name it
        // doesn't offer is refused (ClientChosenInputTests has the hostile ones).
        try await broker.publish("\(Self.base)/input/set", "alsa:null")
        #expect(await Self.statusHolds(daemon) { $0["device"]?.stringValue == "alsa:null" }, "\(String(describing: Self.status(daemon)))")
        #expect(await Self.retained(broker, "\(Self.base)/input/state") { $0 == "alsa:null" })

        // The reload button reloads, and the log names it rather than `ctl reload`.
        try await broker.publish("\(Self.base)/reload/press", "PRESS")
        #expect(await OffPool.until(timeout: 30) { daemon.log.contains("reloaded (MQTT reload button)") }, "\(daemon.log)")
        #expect(!daemon.log.contains("ctl reload"))

        // Killed: the broker publishes the last will.
        daemon.send(signal: SIGKILL)
        _ = await daemon.waitForExit(timeout: 10)
        #expect(try await broker.message("\(Self.base)/availability", seconds: 15) == "offline")
    }

    @Test func reconnectsAndAnnouncesAgainAfterTheBrokerRestarts() async throws {
        let broker = try MosquittoBroker()
        let directory = try TemporaryDirectory("ls-daemon-mqtt-restart")
        let file = try directory.write("lightshow.toml", Self.config(broker: broker))
        let daemon = try DaemonProcess(["--config", file], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        #expect(try await broker.message("\(Self.base)/availability", seconds: 15) == "online")

        broker.stop()
        #expect(await Self.statusHolds(daemon) { $0["mqtt"]?["state"]?.stringValue == "disconnected" })
        try broker.start()
        // The new broker has nothing retained: what it holds, the daemon announced again.
        #expect(await Self.statusHolds(daemon, timeout: 40) { $0["mqtt"]?["state"]?.stringValue == "connected" }, "\(daemon.log)")
        #expect(try await broker.message("\(Self.base)/availability", seconds: 10) == "online")
        #expect(await Self.announced(broker), "\(daemon.log)")
        #expect(try await broker.messages("homeassistant/#", seconds: 3).count == 9)
        let log = daemon.log
        #expect(log.components(separatedBy: "MQTT: lost the connection").count == 2, "one line when it went: \(log)")
        #expect(log.components(separatedBy: "MQTT: connected to").count == 3, "one line each time it came: \(log)")

        // A clean stop says offline itself.
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0, "\(daemon.log)")
        #expect(try await broker.message("\(Self.base)/availability") == "offline")
    }

    @Test func theTitleSensorFollowsMPDAndHomeAssistantRestartGetsEverythingAgain() async throws {
        let broker = try MosquittoBroker()
        let mpd = try await MPDServer.withTestTracks()
        let directory = try TemporaryDirectory("ls-daemon-mqtt-mpd")
        let file = try directory.write("lightshow.toml", Self.config(broker: broker, extra: """
            [mpd]
            address = "\(mpd.socketPath)"
            """))
        let daemon = try DaemonProcess(["--config", file], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        try mpd.mpc("play")
        let title = { () async -> String? in (try? await broker.message("\(Self.base)/title", seconds: 2)) ?? nil }
        #expect(await Wait.until(within: 20) { await title() == "Test Tone" }, "\(String(describing: Self.status(daemon))) \(daemon.log)")
        // The state goes out with the title, as a message of its own: it may reach the broker a moment later.
        #expect(await Self.retained(broker, "\(Self.base)/state") { $0 == "playing" })
        try mpd.mpc("next")
        #expect(await Wait.until(within: 20) { await title().map { !$0.isEmpty && $0 != "Test Tone" } ?? false },
                "the next track's title: \(String(describing: Self.status(daemon)?["title"]))")

        // Home Assistant restarted: a config it lost comes back when it says online.
        let lightConfig = "homeassistant/light/\(HomeAssistantDevice(host: HostName.current(), version: "").identifier)_show/config"
        try await broker.publish(lightConfig, "", retain: true)
        #expect(try await broker.message(lightConfig, seconds: 2) == nil, "the retained config is cleared")
        try await broker.publish("homeassistant/status", "online")
        #expect(try await broker.message(lightConfig, seconds: 10)?.contains("unique_id") == true)
        daemon.send(signal: SIGTERM)
        _ = await daemon.waitForExit(timeout: 10)
    }

    /// 10,000 `online` messages (a broken or hostile publisher): the discovery configs go out again at most once a
    /// second, not once per message.
    @Test func aFloodOfOnlineIsOneRepublishASecond() async throws {
        let broker = try MosquittoBroker()
        let directory = try TemporaryDirectory("ls-daemon-mqtt-online")
        let file = try directory.write("lightshow.toml", Self.config(broker: broker))
        let daemon = try DaemonProcess(["--config", file], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        #expect(await Self.announced(broker), "\(daemon.log)")
        let flood = try directory.write("online", Data(String(repeating: "online\n", count: 10_000).utf8))
        // A subscriber for 4 s while the flood goes out: the 9 retained configs, then what is republished.
        async let seen = broker.messages("homeassistant/+/+/config", seconds: 4)
        try await broker.publishLines("homeassistant/status", from: flood)
        let configs = try await seen.count
        #expect(configs >= 18, "no republish was seen (\(configs) configs): the flood was not handled")
        #expect(configs <= 9 + 9 * 5, "\(configs) configs in 4 s after 10,000 online messages")
        #expect(daemon.isRunning)
    }
}
