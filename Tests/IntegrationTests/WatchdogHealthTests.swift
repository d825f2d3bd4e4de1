import Foundation
import LightShowControl
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The watchdog measures health, not music: a real MPD paused on its fifo output leaves the fifo open and silent,
/// and the daemon must keep sending WATCHDOG=1 (saying in STATUS= that the input is silent and paused), while a
/// reader thread blocked on purpose stops the pings.
@Suite(.serialized) struct WatchdogHealthTests {
    /// WATCHDOG_USEC for these daemons: pings every 0.5 s.
    static let watchdogMicroseconds = 1_000_000

    static func status(_ daemon: DaemonProcess) -> JSONValue? {
        try? ControlClient(path: daemon.socketPath, timeoutSeconds: 30).request("status")["result"]
    }

    @Test func aPausedMPDKeepsThePingsComing() async throws {
        let directory = try TemporaryDirectory("ls-watchdog-mpd")
        let fifo = directory.file("mpd.fifo")
        let mpd = try await MPDServer.withTestTracks(output: .fifo(fifo))
        defer { mpd.kill() }
        _ = try mpd.mpc("play")
        #expect(await OffPool.until(timeout: 30) { FileManager.default.fileExists(atPath: fifo) }, "MPD made no fifo")

        let config = try directory.write("lightshow.toml", Data("""
            [input]
            source = "fifo:\(fifo)"
            [mpd]
            address = "\(mpd.address)"

            """.utf8))
        let notify = try NotifySocket(in: directory, abstract: false)
        let daemon = try DaemonProcess(
            ["--config", config],
            environment: ["NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": "\(Self.watchdogMicroseconds)"],
            directory: directory
        )
        #expect(await DaemonNotifyTests.collect(notify) { $0.contains("READY=1") }.contains("READY=1"), "\(daemon.log)")
        #expect(await OffPool.until(timeout: 30) { Self.status(daemon)?["capture"] == "running" },
                "no audio from MPD's fifo: \(String(describing: Self.status(daemon)))\n\(daemon.log)")

        _ = try mpd.mpc("pause")
        #expect(await OffPool.until(timeout: 30) { Self.status(daemon)?["state"] == "paused" })
        // The input counts as silent a second after its last audio; STATUS= then says so.
        let quietened = await DaemonNotifyTests.collect(notify) {
            $0.contains { $0.hasPrefix("STATUS=") && $0.contains("input silent") && $0.contains("paused") }
        }
        let line = quietened.last { $0.hasPrefix("STATUS=") } ?? ""
        #expect(line.contains("input silent") && line.contains("paused"), "STATUS line: \(line)\n\(daemon.log)")
        // Three watchdog periods of that silence: at 0.5 s per ping, about six pings; none missing for long.
        let seconds = 3.0 * Double(Self.watchdogMicroseconds) / 1e6
        let messages = await DaemonNotifyTests.collect(notify, timeout: seconds) { _ in false }
        let pings = messages.filter { $0 == "WATCHDOG=1" }.count
        #expect(pings >= 4, "\(pings) pings in \(seconds) s of pause: \(messages)\n\(daemon.log)")
        let status = Self.status(daemon)
        #expect(status?["silent"] == true && status?["state"] == "paused", "\(String(describing: status))")
        #expect(daemon.isRunning)
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0)
    }

    @Test func aBlockedReaderThreadStopsThePings() async throws {
        let directory = try TemporaryDirectory("ls-watchdog-stall")
        let fifo = directory.file("in.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let notify = try NotifySocket(in: directory, abstract: false)
        // The documented test hook: the reader thread blocks for ever 3 s after it starts.
        let daemon = try DaemonProcess(
            ["--input", "fifo:\(fifo)"],
            environment: [
                "NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": "\(Self.watchdogMicroseconds)",
                "LIGHTSHOW_TEST_STALL_CAPTURE_AFTER": "3",
            ],
            directory: directory
        )
        #expect(await DaemonNotifyTests.collect(notify) { $0.contains("READY=1") }.contains("READY=1"), "\(daemon.log)")
        // While the reader waits for a writer that never comes, it is alive: pings arrive.
        let early = await DaemonNotifyTests.collect(notify, timeout: 10) { $0.filter { $0 == "WATCHDOG=1" }.count >= 2 }
        #expect(early.filter { $0 == "WATCHDOG=1" }.count >= 2, "\(early)")
        // By 6 s from here the reader has blocked; from then on no ping for several periods.
        _ = await DaemonNotifyTests.collect(notify, timeout: 6) { _ in false }
        let quiet = await DaemonNotifyTests.collect(notify, timeout: 3) { $0.contains("WATCHDOG=1") }
        #expect(!quiet.contains("WATCHDOG=1"), "pings go on after the reader blocked: \(quiet)\n\(daemon.log)")
        #expect(daemon.isRunning, "the daemon itself stays up: systemd is the one to act")
        daemon.send(signal: SIGKILL)
    }
}
