import Foundation
import LightShowControl
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// What a client names is chosen, not typed: against the real daemon, its web server and a real mosquitto, each
/// surface that may change the input refuses an ALSA name that would run a command or write a file, an unknown
/// name, and a configured PCM whose definition uses the file plugin; nothing runs, nothing is written, and the show
/// keeps playing on its input. A name the daemon offers still switches.
@Suite(.serialized) struct ClientChosenInputTests {
    /// An ALSA configuration beside the system's with a hinted PCM that pipes to a shell: listed by ALSA, so a
    /// naive list would offer it.
    static func hostileALSAConfig(_ directory: TemporaryDirectory, marker: String) throws -> String {
        let text = """
            pcm.evil {
                type file
                slave.pcm "null"
                file "|touch \(marker)"
                hint { show on description "a PCM that runs a command" }
            }

            """
        let path = try directory.write("hostile.conf", Data(text.utf8))
        return "/usr/share/alsa/alsa.conf:\(path)"
    }

    static func status(_ daemon: DaemonProcess) -> JSONValue? {
        (try? ControlClient(path: daemon.socketPath, timeoutSeconds: 30).request("status"))?["result"]
    }

    /// The inputs `status` offers.
    static func offered(_ daemon: DaemonProcess) -> [String] {
        guard case .array(let items)? = status(daemon)?["inputs"] else { return [] }
        return items.compactMap(\.stringValue)
    }

    @Test func everySurfaceRefusesNamesItDoesNotOffer() async throws {
        let broker = try MosquittoBroker()
        try broker.start()
        defer { broker.stop() }
        let directory = try TemporaryDirectory("ls-chosen-input")
        let marker = directory.file("pwned")
        let victim = try directory.write("victim.txt", Data("keep me\n".utf8))
        let config = """
            [input]
            source = "demo"
            [web]
            listen = "127.0.0.1:0"
            [mqtt]
            broker = "127.0.0.1:\(broker.port)"
            base_topic = "lightshow/chosen"

            """
        let configPath = try directory.write("lightshow.toml", Data(config.utf8))
        let daemon = try DaemonProcess(
            ["--config", configPath], environment: ["ALSA_CONFIG_PATH": try Self.hostileALSAConfig(directory, marker: marker)],
            directory: directory
        )
        #expect(await OffPool.until(timeout: 30) { Self.status(daemon)?["state"] == "playing" }, "\(daemon.log)")
        // The list is read once at start; the select is announced from it.
        #expect(await OffPool.until(timeout: 30) { Self.offered(daemon).count > 1 }, "\(daemon.log)")
        let offered = Self.offered(daemon)
        #expect(offered.contains("demo") && offered.contains("alsa:null"), "\(offered)")
        #expect(!offered.contains("alsa:evil"), "a PCM with the file plugin is offered: \(offered)")
        #expect(await OffPool.until(timeout: 30) { daemon.log.contains("web: http://127.0.0.1:") })
        let port = try #require(daemon.log.split(separator: "\n").last { $0.contains("web: http://127.0.0.1:") }
            .flatMap { line in line.range(of: "127.0.0.1:").map { Int(line[$0.upperBound...].prefix { $0.isNumber }) } } ?? nil)

        let hostile = [
            "alsa:file:'|touch \(marker)'", "alsa:file:\(victim)", "alsa:no_such_card", "alsa:evil",
            "alsa:{type file file \"|touch \(marker)\"}",
        ]
        for name in hostile {
            // The control socket.
            let reply = try ControlClient(path: daemon.socketPath, timeoutSeconds: 30).request("set-input", arguments: ["input": .string(name)])
            #expect(reply["ok"] == false, "socket \(name): \(reply)")
            #expect(reply["error"]?.stringValue?.contains("not one the daemon offers") ?? false, "socket \(name): \(reply)")
            // The web.
            let body = String(decoding: (["input": .string(name)] as JSONValue).line, as: UTF8.self)
            let response = try HTTPTestClient(port: port).request("POST", "/api/set-input", port: port, body: Array(body.utf8))
            #expect(response.status == 400, "web \(name): \(response)")
            // MQTT: the command is refused, and the select's state goes out again naming the input kept.
            try await broker.publish("lightshow/chosen/input/set", name)
        }
        // MQTT commands run in order: once a later good command has taken effect, the hostile ones were handled.
        try await broker.publish("lightshow/chosen/light/set", #"{"brightness":128}"#)
        #expect(await OffPool.until(timeout: 30) { Self.status(daemon)?["brightness"]?.numberValue.map { abs($0 - 128.0 / 255) < 0.01 } ?? false }, "\(daemon.log)")
        #expect(daemon.log.contains("MQTT lightshow/chosen/input/set: set-input failed"), "\(daemon.log)")
        #expect(try await broker.message("lightshow/chosen/input/state") == "demo")

        #expect(!FileManager.default.fileExists(atPath: marker), "a command ran")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n", "a file was written")
        let after = Self.status(daemon)
        #expect(after?["device"] == "demo" && after?["state"] == "playing", "\(String(describing: after))")

        // A name the daemon offers still switches, from any surface.
        let switched = try ControlClient(path: daemon.socketPath, timeoutSeconds: 30).request("set-input", arguments: ["input": "alsa:null"])
        #expect(switched["ok"] == true, "\(switched)")
        #expect(await OffPool.until(timeout: 30) { Self.status(daemon)?["device"] == "alsa:null" }, "\(daemon.log)")
        let back = try HTTPTestClient(port: port).request("POST", "/api/set-input", port: port, body: Array(#"{"input":"demo"}"#.utf8))
        #expect(back.status == 200, "\(back)")
        #expect(await OffPool.until(timeout: 30) { Self.status(daemon)?["device"] == "demo" && Self.status(daemon)?["state"] == "playing" })
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    /// Without MQTT nobody needs the list at start: the daemon reads it when `status` first asks, and shows the
    /// full list once that read ends.
    @Test func theOfferedInputsAreReadWhenStatusFirstAsks() async throws {
        let directory = try TemporaryDirectory("ls-lazy-inputs")
        let path = try directory.write("lightshow.toml", Data("[input]\nsource = \"demo\"\n".utf8))
        let daemon = try DaemonProcess(["--config", path], directory: directory)
        #expect(await OffPool.until(timeout: 30) { daemon.log.contains("ready") }, "\(daemon.log)")
        #expect(!daemon.log.contains("offered to clients"), "read before anyone asked: \(daemon.log)")
        #expect(await OffPool.until(timeout: 30) { Self.offered(daemon).contains("alsa:null") }, "\(daemon.log)")
        #expect(daemon.log.contains("offered to clients"))
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 15) == 0, "\(daemon.log)")
    }

    /// `config check` names a configured PCM that runs programs or writes files, and still passes the file.
    @Test func configCheckWarnsOfAnInputThatRunsPrograms() throws {
        let directory = try TemporaryDirectory("ls-check-alsa")
        let marker = directory.file("pwned")
        let alsa = try Self.hostileALSAConfig(directory, marker: marker)
        for source in ["alsa:evil", "alsa:file:'|touch \(marker)'"] {
            let path = try directory.write("lightshow.toml", Data("[input]\nsource = \"\(source)\"\n".utf8))
            let result = try LightshowProcess.run(["config", "check", "--config", path], environment: ["ALSA_CONFIG_PATH": alsa])
            #expect(result.status == 0, "\(source): \(result)")
            #expect(result.stdout.contains("warning: input.source") && result.stdout.contains("file plugin"), "\(source): \(result)")
        }
        let safe = try directory.write("lightshow.toml", Data("[input]\nsource = \"alsa:null\"\n".utf8))
        let clean = try LightshowProcess.run(["config", "check", "--config", safe], environment: ["ALSA_CONFIG_PATH": alsa])
        #expect(clean.status == 0 && !clean.stdout.contains("plugin"), "\(clean)")
        #expect(!FileManager.default.fileExists(atPath: marker), "config check ran the command")
    }
}
