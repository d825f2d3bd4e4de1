import Foundation
import LightShowControl
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The control socket of the real daemon running the demo: every command through `lightshow ctl`, hostile
/// input, the socket's mode, and subscribers that don't hold each other up.
@Suite struct DaemonControlTests {
    final class Fixture: @unchecked Sendable {
        let daemon: DaemonProcess

        init(_ label: String) throws {
            daemon = try DaemonProcess(["--input", "demo"], directory: TemporaryDirectory(label))
        }

        func started() async -> Bool {
            guard await daemon.waitForSocket() else { return false }
            return await OffPool.until(timeout: 30) { (try? self.state()) == "playing" }
        }

        func state() throws -> String? {
            try ControlClient(path: daemon.socketPath, timeoutSeconds: 30).request("status")["result"]?["state"]?.stringValue
        }

        func stop() async -> Int32? {
            daemon.send(signal: SIGTERM)
            return await daemon.waitForExit(timeout: 10)
        }
    }

    @Test func everyCommandWorks() async throws {
        let fixture = try Fixture("ls-daemon-ctl")
        let daemon = fixture.daemon
        #expect(await fixture.started(), "\(daemon.log)")
        // Playing comes with the input's start; the capture counts as running once its first block is in.
        let running = await OffPool.until(timeout: 30) {
            (try? ControlClient(path: daemon.socketPath, timeoutSeconds: 30).request("status"))?["result"]?["capture"] == "running"
        }
        #expect(running, "\(daemon.log)")

        let status = try await daemon.ctl(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        // The summary: a line each, the levels as percentages and bars; --json keeps every key.
        let lines = status.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("● playing (") == true, "\(status.stdout)")
        for prefix in ["Input:   demo at 48000 Hz, 2 channels; capture running, 0 xruns", "Title:   Demo", "Levels:  bass ",
                       "Outputs: no network lights; brightness 100%", "Viewers: ", "MQTT:    off", "Web:     off"] {
            #expect(lines.contains { $0.hasPrefix(prefix) }, "\(prefix) in\n\(status.stdout)")
        }
        #expect(lines.count <= 10 && !status.stdout.contains("levels.bass"), "\(status.stdout)")
        let json = try await daemon.ctl(["--json", "status"])
        #expect(json.stdout.contains(#""rate":48000"#) && json.stdout.contains(#""bands":{"#), "\(json.stdout)")
        #expect(json.stdout.contains(#""web":{"state":"off"}"#), "\(json.stdout)")

        for (command, expected) in [("pause", "paused"), ("toggle", "playing"), ("stop", "stopped"), ("play", "playing"),
                                    ("toggle", "paused"), ("toggle", "playing")] {
            let result = try await daemon.ctl([command])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(await OffPool.until(timeout: 30) { (try? fixture.state()) == expected }, "\(command) → \(expected)")
        }

        let reload = try await daemon.ctl(["reload"])
        #expect(reload.status == 0, "\(reload.stderr)")
        #expect(reload.stdout.contains("input_restarted: false"), "\(reload.stdout)")

        // subscribe: frame events at the requested rate.
        let subscriber = try ControlClient(path: daemon.socketPath, timeoutSeconds: 30)
        #expect(try subscriber.request("subscribe", arguments: ["fps": 20])["ok"] == true)
        nonisolated(unsafe) let stream = subscriber
        let frames = try await OffPool.run {
            var frames: [JSONValue] = []
            while frames.count < 5, let event = try stream.readJSON() {
                if event["event"] == "frame" { frames.append(event) }
            }
            return frames
        }
        #expect(frames.count == 5)
        #expect(frames.allSatisfy { $0["state"] == "playing" && $0["title"] == "Demo" && $0["bass"]?.numberValue != nil }, "\(frames)")
        #expect(await fixture.stop() == 0)
    }

    @Test func malformedAndOversizedLinesLeaveItServing() async throws {
        let fixture = try Fixture("ls-daemon-junk")
        let daemon = fixture.daemon
        #expect(await fixture.started(), "\(daemon.log)")

        let client = try ControlClient(path: daemon.socketPath, timeoutSeconds: 30)
        var junk: [UInt8] = []
        for index in 0..<999 {
            junk += Array((index % 3 == 0 ? "{\"id\":\(index),\"cmd\":\"explode\"}\n" : index % 3 == 1 ? "not json \(index)\n" : "[1,2\n").utf8)
        }
        junk += [UInt8](repeating: UInt8(ascii: "x"), count: 70_000) + [UInt8(ascii: "\n")]
        nonisolated(unsafe) let connection = client
        let lines = junk
        let errors = try await OffPool.run {
            try connection.send(lines)
            var errors = 0
            while errors < 1000, let reply = try connection.readJSON() {
                if reply["ok"] == false { errors += 1 }
            }
            return errors
        }
        #expect(errors == 1000)
        // The same connection, and a new one, still work; the daemon is unharmed.
        #expect(try client.request("status")["ok"] == true)
        #expect(try fixture.state() == "playing")
        #expect(daemon.isRunning)
        #expect(await fixture.stop() == 0)
    }

    @Test func socketModeIs0660() async throws {
        let fixture = try Fixture("ls-daemon-mode")
        #expect(await fixture.started(), "\(fixture.daemon.log)")
        var info = stat()
        #expect(stat(fixture.daemon.socketPath, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o660)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(await fixture.stop() == 0)
    }

    @Test func aSubscriberThatNeverReadsDoesNotSlowAnother() async throws {
        let fixture = try Fixture("ls-daemon-slow")
        #expect(await fixture.started(), "\(fixture.daemon.log)")
        let stalled = try ControlClient(path: fixture.daemon.socketPath, timeoutSeconds: 30)
        #expect(try stalled.request("subscribe", arguments: ["fps": 240])["ok"] == true)
        let reader = try ControlClient(path: fixture.daemon.socketPath, timeoutSeconds: 30)
        #expect(try reader.request("subscribe", arguments: ["fps": 20])["ok"] == true)

        nonisolated(unsafe) let stream = reader
        let (frames, elapsed) = try await OffPool.run {
            let start = Date()
            var frames = 0
            while Date().timeIntervalSince(start) < 3, let event = try stream.readJSON() {
                if event["event"] == "frame" { frames += 1 }
            }
            return (frames, Date().timeIntervalSince(start))
        }
        // 20 fps asked for (the daemon's rate); a stalled neighbour must not cost the reader more than half of it.
        #expect(Double(frames) >= 0.5 * 20 * elapsed, "\(frames) frames in \(elapsed) s")
        #expect(try fixture.state() == "playing")
        #expect(await fixture.stop() == 0)
    }
}
