import LightShowSystem
import Foundation
import LightShowControl
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `lightshow daemon` speaking sd_notify to a real datagram socket standing in for systemd's NOTIFY_SOCKET.
@Suite struct DaemonNotifyTests {
    /// Datagrams until `done` holds for everything received so far (or the time runs out).
    /// Read on a thread of its own, leaving the cooperative pool to the other tests.
    static func collect(
        _ socket: NotifySocket, timeout: Double = 30, until done: @escaping @Sendable ([String]) -> Bool
    ) async -> [String] {
        (try? await OffPool.run {
            var messages: [String] = []
            let deadline = Date().addingTimeInterval(timeout)
            while !done(messages), let message = socket.receive(timeout: max(0, deadline.timeIntervalSinceNow)) {
                messages.append(message)
            }
            return messages
        }) ?? []
    }

    @Test(arguments: [false, true])
    func readyStatusReloadAndStopping(abstract: Bool) async throws {
        let directory = try TemporaryDirectory("ls-daemon-notify")
        let notify = try NotifySocket(in: directory, abstract: abstract)
        let daemon = try DaemonProcess(["--input", "demo"], environment: ["NOTIFY_SOCKET": notify.address], directory: directory)

        let started = await Self.collect(notify) { messages in
            messages.contains("READY=1") && messages.contains { $0.hasPrefix("STATUS=demo at 48000 Hz, playing") }
        }
        #expect(started.contains("READY=1"), "\(started)\n\(daemon.log)")
        let status = started.first { $0.hasPrefix("STATUS=demo at 48000 Hz, playing") }
        #expect(status == "STATUS=demo at 48000 Hz, playing, 0 xruns, 0 recoveries, 0 subscribers", "\(started)")

        daemon.send(signal: SIGHUP)
        let reload = await Self.collect(notify) { $0.last == "READY=1" }
        let reloading = reload.firstIndex { $0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") }
        #expect(reloading != nil && reload.last == "READY=1", "\(reload)\n\(daemon.log)")
        if let reloading {
            // The stamp is CLOCK_MONOTONIC in microseconds, taken just now.
            let stamp = UInt64(reload[reloading].split(separator: "=").last ?? "")
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
            #expect(stamp.map { $0 <= nowMicroseconds && nowMicroseconds - $0 < 30_000_000 } == true, "\(reload[reloading])")
        }
        #expect(daemon.isRunning)

        let sent = Date()
        daemon.send(signal: SIGTERM)
        let stopping = await Self.collect(notify, timeout: 10) { $0.last == "STOPPING=1" }
        let exit = await daemon.waitForExit(timeout: 10)
        let elapsed = Date().timeIntervalSince(sent)
        #expect(stopping.last == "STOPPING=1", "\(stopping)")
        #expect(exit == 0, "\(daemon.log)")
        #expect(elapsed < 1.0, "shutdown took \(elapsed) s")
    }

    /// A reload while the input is still opening (a sound server that takes the connection and never answers:
    /// libpulse gives up after 3 s) doesn't tell systemd the start is over: READY=1 comes once, after the open.
    @Test func aReloadDuringStartUpSendsNoEarlyReady() async throws {
        let directory = try TemporaryDirectory("ls-daemon-early")
        let notify = try NotifySocket(in: directory, abstract: false)
        let server = directory.file("pulse.sock")
        let listener = try Launch.start(["/usr/bin/python3", "-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.bind(sys.argv[1])
            s.listen(8)
            held = []
            while True:
                held.append(s.accept()[0])
            """, server])
        // SIGKILL: a child of the test runner inherits its blocked SIGTERM.
        defer { kill(listener.processIdentifier, SIGKILL) }
        #expect(await OffPool.until(timeout: 10) { FileManager.default.fileExists(atPath: server) })

        let daemon = try DaemonProcess(
            ["--input", "pulse"], environment: ["NOTIFY_SOCKET": notify.address, "PULSE_SERVER": "unix:\(server)"],
            directory: directory
        )
        // The first STATUS= comes from the running service, with SIGHUP trapped.
        let first = await Self.collect(notify) { $0.contains { $0.hasPrefix("STATUS=") } }
        #expect(!first.contains("READY=1"), "\(first)")
        daemon.send(signal: SIGHUP)
        let messages = await Self.collect(notify) { $0.contains("READY=1") }
        let ready = try #require(messages.firstIndex(of: "READY=1"), "\(messages)\n\(daemon.log)")
        #expect(!messages[..<ready].contains { $0.hasPrefix("RELOADING=1") }, "\(messages)")
        // The reload itself went through, before the start was over. The daemon logs "ready" just after it sends
        // READY=1, so the line may still be on its way.
        #expect(await OffPool.until(timeout: 10) { daemon.log.contains("] ready") }, "\(daemon.log)")
        let log = daemon.log
        let reloaded = try #require(log.range(of: "reloaded (SIGHUP)"), "\(log)")
        let started = try #require(log.range(of: "] ready"), "\(log)")
        #expect(reloaded.lowerBound < started.lowerBound, "\(log)")
    }

    @Test func sigintStopsCleanlyToo() async throws {
        let directory = try TemporaryDirectory("ls-daemon-int")
        let notify = try NotifySocket(in: directory, abstract: false)
        let daemon = try DaemonProcess(["--input", "demo"], environment: ["NOTIFY_SOCKET": notify.address], directory: directory)
        let started = await Self.collect(notify) { $0.contains("READY=1") }
        #expect(started.contains("READY=1"), "\(daemon.log)")
        daemon.send(signal: SIGINT)
        #expect(await Self.collect(notify, timeout: 10) { $0.last == "STOPPING=1" }.last == "STOPPING=1")
        #expect(await daemon.waitForExit(timeout: 10) == 0, "\(daemon.log)")
        // The socket file goes with the daemon.
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    /// WATCHDOG=1 comes at half of WATCHDOG_USEC while audio flows from a fifo, and goes on when the writer stops
    /// feeding it (STATUS= then says the input is silent, until audio comes back).
    @Test func watchdogFollowsCaptureProgress() async throws {
        let directory = try TemporaryDirectory("ls-daemon-watchdog")
        let notify = try NotifySocket(in: directory, abstract: false)
        let fifo = directory.file("in.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // Read-write, so opening never waits and the daemon's reads block (not end) when feeding stops.
        let feeder = try FifoFeeder(path: fifo)
        feeder.feeding = true
        let daemon = try DaemonProcess(
            ["--input", "fifo:\(fifo)"],
            environment: ["NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": "500000"],
            directory: directory
        )
        #expect(await Self.collect(notify) { $0.contains("READY=1") }.contains("READY=1"), "\(daemon.log)")

        // Pings counted over a 3 s window (after dropping any already queued): at half of 500 ms that is 12.
        let pings = try await OffPool.run {
            while notify.receive(timeout: 0) != nil {}
            var pings = 0
            let end = Date().addingTimeInterval(3)
            while let message = notify.receive(timeout: max(0, end.timeIntervalSinceNow)) {
                if message == "WATCHDOG=1" { pings += 1 }
            }
            return pings
        }
        // Never as slow as the full WATCHDOG_USEC systemd acts on (≥ 6), nor much faster than asked (≤ 15).
        #expect(pings >= 6 && pings <= 15, "\(pings) pings in 3 s\n\(daemon.log)")

        // Silence (a paused player keeps its fifo open and writes nothing) is a state, not a hang: the reader
        // still goes round, so the pings go on and STATUS= says the input is silent. A blocked reader is
        // WatchdogHealthTests' case.
        feeder.feeding = false
        let silent = await Self.collect(notify) { $0.contains { $0.hasPrefix("STATUS=") && $0.contains("input silent") } }
        #expect(silent.contains { $0.hasPrefix("STATUS=") && $0.contains("input silent") }, "\(silent)")
        // Silent from here on: 3 s would bring 12 pings; 4 of them are enough to show they go on.
        let pingsWhileSilent = await Self.collect(notify, timeout: 3) { $0.filter { $0 == "WATCHDOG=1" }.count >= 4 }
        #expect(pingsWhileSilent.filter { $0 == "WATCHDOG=1" }.count >= 4, "\(pingsWhileSilent)")
        #expect(daemon.isRunning)

        feeder.feeding = true
        let resumed = await Self.collect(notify) { $0.contains { $0.hasPrefix("STATUS=") && !$0.contains("silent") } }
        #expect(resumed.contains { $0.hasPrefix("STATUS=") && !$0.contains("silent") }, "\(resumed)\n\(daemon.log)")
        feeder.stop()
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0)
    }

    /// STATUS= is pushed when what it shows changes: a subscriber coming and going, audio starting and stopping.
    /// In between, with nothing changing, no line is sent.
    @Test func statusFollowsChangesAsTheyHappen() async throws {
        let directory = try TemporaryDirectory("ls-daemon-status")
        let notify = try NotifySocket(in: directory, abstract: false)
        let fifo = directory.file("in.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let feeder = try FifoFeeder(path: fifo)
        defer { feeder.stop() }
        let daemon = try DaemonProcess(["--input", "fifo:\(fifo)"], environment: ["NOTIFY_SOCKET": notify.address], directory: directory)
        let status: @Sendable ([String], (String) -> Bool) -> Bool = { messages, wanted in
            messages.contains { $0.hasPrefix("STATUS=") && wanted($0) }
        }
        let silent = await Self.collect(notify) { status($0) { $0.contains("input silent") } }
        #expect(status(silent) { $0.contains("input silent") }, "\(silent)\n\(daemon.log)")
        let quiet = await Self.collect(notify, timeout: 1.5) { _ in false }
        #expect(!status(quiet) { _ in true }, "nothing changed, yet: \(quiet)")

        let client = try ControlClient(path: daemon.socketPath, timeoutSeconds: 30)
        #expect(try client.request("subscribe")["ok"] == true)
        let subscribed = await Self.collect(notify) { status($0) { $0.contains(", 1 subscriber") } }
        #expect(status(subscribed) { $0.contains(", 1 subscriber") }, "\(subscribed)")
        client.disconnect()
        let left = await Self.collect(notify) { status($0) { $0.contains(", 0 subscribers") } }
        #expect(status(left) { $0.contains(", 0 subscribers") }, "\(left)")

        feeder.feeding = true
        let playing = await Self.collect(notify) { status($0) { $0.contains("Hz, playing") } }
        #expect(status(playing) { $0.contains("Hz, playing") }, "\(playing)\n\(daemon.log)")
        feeder.feeding = false
        let stopped = await Self.collect(notify) { status($0) { $0.contains("input silent") } }
        #expect(status(stopped) { $0.contains("input silent") }, "\(stopped)")
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0)
    }

    /// A fifo whose writer goes away (MPD stopped) is opened again, and while it waits for a new writer the
    /// watchdog keeps pinging: waiting for a writer is not a hung read.
    @Test func fifoWriterGoingAwayIsWaitedForNotRestarted() async throws {
        let directory = try TemporaryDirectory("ls-daemon-fifo-end")
        let notify = try NotifySocket(in: directory, abstract: false)
        let fifo = directory.file("in.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let daemon = try DaemonProcess(
            ["--input", "fifo:\(fifo)"],
            environment: ["NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": "400000"],
            directory: directory
        )
        #expect(await Self.collect(notify) { $0.contains("READY=1") }.contains("READY=1"), "\(daemon.log)")
        // A writer plays a moment, then closes: end of input.
        let tone = Signals.s16le(Signals.interleave(Signals.sine(frequency: 200, seconds: 0.5, sampleRate: 44_100), channels: 2))
        try await OffPool.run { try tone.write(to: URL(fileURLWithPath: fifo)) }
        #expect(await OffPool.until(timeout: 30) { daemon.log.contains("ended; opening it again") }, "\(daemon.log)")
        // Waiting for the next writer: pings go on.
        _ = await Self.collect(notify, timeout: 1) { _ in false }
        let waiting = await Self.collect(notify, timeout: 2) { $0.contains("WATCHDOG=1") }
        #expect(waiting.contains("WATCHDOG=1"), "\(waiting)\n\(daemon.log)")
        #expect(daemon.isRunning)
        // A new writer is heard.
        let feeder = try FifoFeeder(path: fifo)
        feeder.feeding = true
        defer { feeder.stop() }
        #expect(await OffPool.until(timeout: 30) {
            let status = try? ControlClient(path: daemon.socketPath, timeoutSeconds: 30).request("status")["result"]
            return status?["capture"] == "running"
        }, "\(daemon.log)")
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0)
    }
}

/// Writes a 200 Hz tone (44.1 kHz, 16-bit stereo: the fifo default) into a fifo in real time while `feeding`.
final class FifoFeeder: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private var isFeeding = false
    private var stopped = false

    var feeding: Bool {
        get { lock.withLock { isFeeding } }
        set { lock.withLock { isFeeding = newValue } }
    }

    init(path: String) throws {
        fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        let chunk = Signals.s16le(Signals.interleave(Signals.sine(frequency: 200, seconds: 0.01, sampleRate: 44_100), channels: 2))
        Thread.detachNewThread { [self] in
            while !lock.withLock({ stopped }) {
                if feeding {
                    // A daemon that stopped reading makes this feeder wait; the test's end ends it.
                    _ = try? FileDescriptorIO.writeAll(fd, [UInt8](chunk))
                }
                usleep(10_000)  // pacing the tone in real time, not synchronisation
            }
            close(fd)
        }
    }

    func stop() { lock.withLock { stopped = true } }
}
