import Foundation
import LightShowControl
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Reloading the running daemon's config: a bad file keeps the running config and its errors reach the caller
/// (the log for SIGHUP, `ctl reload` with exit 78); a good one changes the band ranges live without reopening
/// the input.
@Suite struct DaemonReloadTests {
    static func config(bassUpper: String, midColor: String = "\"#34C759\"") -> Data {
        Data("""
            [input]
            source = "demo"
            [bands.bass]
            lower = 30
            upper = \(bassUpper)
            [bands.mid]
            color = \(midColor)

            """.utf8)
    }

    static func status(_ daemon: DaemonProcess) throws -> JSONValue {
        let reply = try ControlClient(path: daemon.socketPath, timeoutSeconds: 30).request("status")
        return reply["result"] ?? .null
    }

    static func bassUpper(_ daemon: DaemonProcess) throws -> Double? {
        try status(daemon)["bands"]?["bass"]?["upper"]?.numberValue
    }

    @Test func badFileKeepsTheRunningConfigAndReportsEveryError() async throws {
        let directory = try TemporaryDirectory("ls-daemon-reload-bad")
        let file = try directory.write("lightshow.toml", Self.config(bassUpper: "150"))
        let notify = try NotifySocket(in: directory, abstract: false)
        let daemon = try DaemonProcess(["--config", file], environment: ["NOTIFY_SOCKET": notify.address], directory: directory)
        #expect(await DaemonNotifyTests.collect(notify) { $0.contains("READY=1") }.contains("READY=1"), "\(daemon.log)")
        #expect(try Self.bassUpper(daemon) == 150)

        // Two problems: both must reach the caller, each with its key path and line.
        try Self.config(bassUpper: "99999", midColor: "\"green\"").write(to: URL(fileURLWithPath: file))

        daemon.send(signal: SIGHUP)
        let reload = await DaemonNotifyTests.collect(notify) { $0.last == "READY=1" }
        #expect(reload.contains { $0.hasPrefix("RELOADING=1") } && reload.last == "READY=1", "\(reload)")
        #expect(await OffPool.until(timeout: 30) { daemon.log.contains("keeping the running configuration") })
        #expect(daemon.log.contains("lightshow.toml:5: error: bands.bass.upper"), "\(daemon.log)")
        #expect(daemon.log.contains("bands.mid.color"), "\(daemon.log)")
        #expect(daemon.isRunning)
        #expect(try Self.bassUpper(daemon) == 150)

        let result = try await daemon.ctl(["reload"])
        #expect(result.status == 78, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.contains { $0.contains("lightshow.toml:5: error: bands.bass.upper: 99999") }, "\(result.stderr)")
        #expect(lines.contains { $0.contains("lightshow.toml:7: error: bands.mid.color") }, "\(result.stderr)")
        // Still serving, on the old config.
        #expect(try Self.bassUpper(daemon) == 150)
        #expect(try Self.status(daemon)["state"] == "playing")

        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0)
    }

    @Test func goodFileChangesTheBandsLiveWithoutReopeningTheInput() async throws {
        let directory = try TemporaryDirectory("ls-daemon-reload-good")
        let file = try directory.write("lightshow.toml", Self.config(bassUpper: "150"))
        let daemon = try DaemonProcess(["--config", file], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        #expect(await OffPool.until(timeout: 30) { (try? Self.status(daemon)["state"]) == "playing" }, "\(daemon.log)")

        let subscriber = try ControlClient(path: daemon.socketPath, timeoutSeconds: 30)
        #expect(try subscriber.request("subscribe", arguments: ["fps": 30])["ok"] == true)
        let before = try await Self.nextFrameIndex(subscriber)

        try Self.config(bassUpper: "180").write(to: URL(fileURLWithPath: file))
        let result = try await daemon.ctl(["--json", "reload"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""ok":true"#) && result.stdout.contains(#""input_restarted":false"#), "\(result.stdout)")
        #expect(try Self.bassUpper(daemon) == 180)

        // The same engine keeps counting frames: capture was not dropped.
        let after = try await Self.nextFrameIndex(subscriber)
        #expect(before != nil && after != nil && after! > before!, "frames \(String(describing: before)) → \(String(describing: after))")
        #expect(try Self.status(daemon)["reopens"] == 0)

        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0)
    }

    static func nextFrameIndex(_ client: ControlClient) async throws -> Double? {
        nonisolated(unsafe) let stream = client
        return try await OffPool.run {
            while let event = try stream.readJSON() {
                if event["event"] == "frame" { return event["index"]?.numberValue }
            }
            return nil
        }
    }
}

/// A daemon whose input can't open stays up in its retry loop, and a reload naming another input starts capture.
@Suite struct DaemonInputRetryTests {
    @Test func missingDeviceIsRetriedAndAReloadSwitchesTheInput() async throws {
        let directory = try TemporaryDirectory("ls-daemon-retry")
        let file = try directory.write("lightshow.toml", Data("[input]\nsource = \"alsa:lightshow_no_such_device\"\n".utf8))
        let notify = try NotifySocket(in: directory, abstract: false)
        let daemon = try DaemonProcess(
            ["--config", file], environment: ["NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": "400000"], directory: directory
        )
        // READY once the retry loop runs; the status says what it waits for; the watchdog keeps pinging meanwhile.
        let started = await DaemonNotifyTests.collect(notify) { messages in
            messages.contains("READY=1") && messages.contains { $0.hasPrefix("STATUS=waiting for alsa:lightshow_no_such_device") }
                && messages.contains("WATCHDOG=1")
        }
        #expect(started.contains("READY=1") && started.contains("WATCHDOG=1"), "\(started)\n\(daemon.log)")
        let status = try DaemonReloadTests.status(daemon)
        #expect(status["error"]?.stringValue?.contains("lightshow_no_such_device") == true, "\(status)")
        let pause = try await daemon.ctl(["pause"])
        #expect(pause.status == 65 && pause.stderr.contains("no input is open"), "\(pause.stderr)")
        #expect(daemon.isRunning)

        try Data("[input]\nsource = \"demo\"\n".utf8).write(to: URL(fileURLWithPath: file))
        let reload = try await daemon.ctl(["reload"])
        #expect(reload.status == 0 && reload.stdout.contains("input_restarted: true"), "\(reload.stdout)\(reload.stderr)")
        #expect(await OffPool.until(timeout: 30) {
            let status = try? DaemonReloadTests.status(daemon)
            return status?["device"] == "demo" && status?["state"] == "playing"
        }, "\(daemon.log)")
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0)
    }
}
