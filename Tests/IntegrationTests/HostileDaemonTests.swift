import Foundation
import LightShowControl
import LightShowSystem
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Issue 13's examples against the real daemon: whatever a reload reads, a peer sends or a fifo withholds, the
/// daemon stays up and answers `status` afterwards.
@Suite struct HostileDaemonTests {
    static func status(_ daemon: DaemonProcess) throws -> JSONValue {
        try ControlClient(path: daemon.socketPath, timeoutSeconds: 30).request("status")
    }

    static func startedDaemon(_ directory: TemporaryDirectory, config: String) async throws -> (DaemonProcess, String) {
        let file = try directory.write("lightshow.toml", Data(config.utf8))
        let daemon = try DaemonProcess(["--config", file], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        #expect(await OffPool.until(timeout: 30) { (try? Self.status(daemon)["ok"]) == true }, "\(daemon.log)")
        return (daemon, file)
    }

    static let hostileConfigs: [(String, String)] = [
        ("[playback]\nidle_after = \"1000000000000000000000000s\"\n", "playback.idle_after: 1e+24s is above the maximum"),
        ("a" + String(repeating: ".a", count: 60_000) + " = 1\n", "refused before parsing"),
        ("a = " + String(repeating: "[", count: 50_000) + "\n", "refused before parsing"),
        ("[bands.bass]\nupper = 1e300\nlower = -1e300\n", "bands.bass"),
        ("[control]\nmax_clients = 99999999999999999999999\n", "error"),
        ("\u{FF}\u{FE}garbage\u{0}\n", "error"),
        // toml++ aborts on these (assertions left on in release builds); only the probe process dies.
        ("a = [[0, 2], }]\n", "the TOML parser cannot read this file (it crashed with signal 6)"),
    ]

    /// `lightshow daemon 2>&1 | tee log` with tee gone: the log lines are lost, the daemon is not (SIGPIPE).
    @Test func aLogPipeWithoutAReaderLeavesTheDaemonUp() async throws {
        let directory = try TemporaryDirectory("ls-hostile-log")
        let pipe = Pipe()
        let daemon = try DaemonProcess(["--input", "demo"], directory: directory, standardError: pipe.fileHandleForWriting)
        try pipe.fileHandleForReading.close()
        try pipe.fileHandleForWriting.close()
        #expect(await daemon.waitForSocket())
        // Start-up logged into the pipe already; a reload logs again.
        let reload = try await daemon.ctl(["reload"])
        #expect(reload.status == 0, "\(reload.stderr)")
        #expect(try Self.status(daemon)["ok"] == true)
        #expect(daemon.isRunning)
    }

    @Test func reloadOfAnyFileKeepsTheDaemonAndCtlFindsTheSocketWithoutAValidConfig() async throws {
        let directory = try TemporaryDirectory("ls-hostile-reload")
        let (daemon, file) = try await Self.startedDaemon(directory, config: "[input]\nsource = \"demo\"\n")
        for (text, message) in Self.hostileConfigs {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            // No --socket: ctl reads the (now hostile) config to find it, as ExecReload does.
            let result = try await LightshowProcess.runDetached(
                ["ctl", "--config", file, "--timeout", "30s", "reload"], environment: ["RUNTIME_DIRECTORY": directory.path]
            )
            #expect(result.status == 78, "\(message): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(daemon.isRunning, "\(daemon.log)")
            #expect(try Self.status(daemon)["ok"] == true)
        }
        // A config path that has become a fifo: refused at once, not waited on.
        try FileManager.default.removeItem(atPath: file)
        #expect(mkfifo(file, 0o600) == 0)
        let result = try await daemon.ctl(["reload"])
        #expect(result.status == 78 && result.stderr.contains("not a regular file"), "\(result.stderr)")
        #expect(try Self.status(daemon)["result"]?["state"] == "playing")
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0)
    }

    @Test func aFifoWithNoWriterStopsOnSIGTERMAtOnce() async throws {
        let directory = try TemporaryDirectory("ls-hostile-fifo")
        let fifo = directory.file("in.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let (daemon, _) = try await Self.startedDaemon(directory, config: "[input]\nsource = \"fifo:\(fifo)\"\n")
        // The control socket answers before the input is open (it opens on a thread of its own): wait for it.
        #expect(await OffPool.until(timeout: 30) { (try? Self.status(daemon))?["result"]?["rate"] == 44_100 },
                "the fifo is open (no writer): \(String(describing: try? Self.status(daemon)))")
        let started = Date()
        daemon.send(signal: SIGTERM)
        // Timed by the process's own state (a zombie has exited), not by Foundation noticing the exit later.
        let pid = daemon.pid
        #expect(await OffPool.until(timeout: 10) { Self.hasExited(pid) })
        let took = Date().timeIntervalSince(started)
        #expect(await daemon.waitForExit(timeout: 10) == 0, "\(daemon.log)")
        // The reader polls for a stop every 50 ms; the rest is the process's own shutdown.
        #expect(took < 2, "SIGTERM took \(took) s")
    }

    /// True once `pid` is a zombie or gone.
    static func hasExited(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    @Test func duplicateKeysAreAnErrorAndRunNothing() async throws {
        let directory = try TemporaryDirectory("ls-hostile-dup")
        let (daemon, _) = try await Self.startedDaemon(directory, config: "[input]\nsource = \"demo\"\n")
        // Playing first (the demo's first frames), so a `stop` that ran would show.
        #expect(await OffPool.until(timeout: 30) { (try? Self.status(daemon)["result"]?["state"]) == "playing" })
        let client = try ControlClient(path: daemon.socketPath, timeoutSeconds: 30)
        try client.send(Array(#"{"id":1,"cmd":"status","cmd":"stop"}"#.utf8) + [10])
        let reply = try #require(try client.readJSON())
        #expect(reply["ok"] == false)
        #expect(reply["error"]?.stringValue?.contains(#"duplicate key ("cmd" appears twice)"#) == true, "\(reply)")
        // A stop is only sent to the engine, which takes commands in order: once a pause sent after it has taken
        // effect, a stop that ran would show (a stopped show does not pause).
        let pause = try await daemon.ctl(["pause"])
        #expect(pause.status == 0, "\(pause.stderr)")
        #expect(await OffPool.until(timeout: 30) { (try? Self.status(daemon)["result"]?["state"]) == "paused" },
                "\(String(describing: try? Self.status(daemon)))")
    }

    @Test func clientsThatHangUpFreeTheirSlotsWhileNoFramesFlow() async throws {
        let directory = try TemporaryDirectory("ls-hostile-slots")
        let fifo = directory.file("silent.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        // A fifo with no writer: no frames flow, so only a hang-up can tell the server a subscriber left.
        let (daemon, _) = try await Self.startedDaemon(
            directory, config: "[input]\nsource = \"fifo:\(fifo)\"\n[control]\nmax_clients = 16\n"
        )
        for _ in 0..<3 {
            var viewers: [ControlClient] = []
            for _ in 0..<16 {
                let viewer = try ControlClient(path: daemon.socketPath, timeoutSeconds: 30)
                #expect(try viewer.request("subscribe")["ok"] == true)
                viewers.append(viewer)
            }
            viewers.removeAll()  // closes all 16
            #expect(await OffPool.until(timeout: 30) {
                (try? Self.status(daemon)["result"]?["subscribers"]) == 0
            }, "slots still held: \(String(describing: try? Self.status(daemon)))")
        }
    }

    @Test func idleAndHalfSentConnectionsTimeOut() async throws {
        let directory = try TemporaryDirectory("ls-hostile-idle")
        let (daemon, _) = try await Self.startedDaemon(
            directory, config: "[input]\nsource = \"demo\"\n[control]\nmax_clients = 4\nidle_timeout = \"1s\"\n"
        )
        var squatters: [ControlClient] = []
        for index in 0..<4 {
            let squatter = try ControlClient(path: daemon.socketPath, timeoutSeconds: 30)
            // Half of them start a line and never finish it.
            if index % 2 == 0 { try squatter.send(Array(#"{"id":1,"cmd":"sta"#.utf8)) }
            squatters.append(squatter)
        }
        let refused = try? ControlClient(path: daemon.socketPath, timeoutSeconds: 30).request("status")
        #expect(refused?["ok"] != true, "a fifth client got in past max_clients: \(String(describing: refused))")
        // Within the idle time (plus the loop's own slack) every squatter is closed and status works again.
        #expect(await OffPool.until(timeout: 10) { (try? Self.status(daemon)["ok"]) == true })
        // Closed by the server: end of stream, or a reset when it closed with bytes of ours still unread.
        for squatter in squatters {
            switch Result(catching: { () throws(SystemCallError) in try squatter.readLine() }) {
            case .success(let line): #expect(line == nil, "closed by the server, yet a line came")
            case .failure(let error): #expect(error.code == ECONNRESET, "closed by the server: \(error)")
            }
        }
    }

    @Test func aClientFloodingLinesCannotStarveAnotherClientsStatus() async throws {
        let directory = try TemporaryDirectory("ls-hostile-flood")
        let (daemon, _) = try await Self.startedDaemon(directory, config: "[input]\nsource = \"demo\"\n")
        let stop = StopFlag()
        let path = daemon.socketPath
        let flood = Thread {
            guard let flooder = try? ControlClient(path: path, timeoutSeconds: 1) else { return }
            // Deeply nested and wide objects: the most expensive lines the parser takes, never read back.
            let line = Array(("{" + (0..<2000).map { "\"k\($0)\":[[[[1]]]]" }.joined(separator: ",") + "}\n").utf8)
            while !stop.isSet { if (try? flooder.send(line)) == nil { break } }
        }
        flood.start()
        defer { stop.set() }
        for _ in 0..<20 {
            let started = Date()
            #expect(try Self.status(daemon)["ok"] == true)
            #expect(Date().timeIntervalSince(started) < 2, "status took \(Date().timeIntervalSince(started)) s")
        }
    }
}

/// A flag one thread sets and another polls.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
