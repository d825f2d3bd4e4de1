import Foundation
import LightShowSystem
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The web server's own process (`lightshow-web`) under the real daemon: started again when it dies, gone when the
/// daemon goes (asked or killed), and a clear refusal when run by hand.
@Suite(.serialized) struct WebServerProcessTests {
    /// The pids of the log's "(lightshow-web, pid N)" lines, oldest first.
    static func webPIDs(_ daemon: DaemonProcess) -> [pid_t] {
        daemon.log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "(lightshow-web, pid ") else { return nil }
            return pid_t(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    /// Whether `pid` still runs (a zombie waiting for its parent counts as gone).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }

    static var webExecutable: String {
        LightshowProcess.executableURL.deletingLastPathComponent().appendingPathComponent("lightshow-web").path
    }

    @Test func aWebServerThatDiesIsStartedAgainOnItsPort() async throws {
        let web = try WebDaemon("ls-web-restart")
        #expect(await web.started(), "\(web.daemon.log)")
        let first = try #require(Self.webPIDs(web.daemon).last, "\(web.daemon.log)")
        let port = web.port
        #expect(Self.isRunning(first))

        kill(first, SIGKILL)
        #expect(await OffPool.until(timeout: 30) { Self.webPIDs(web.daemon).count == 2 }, "\(web.daemon.log)")
        let second = try #require(Self.webPIDs(web.daemon).last)
        #expect(second != first)
        #expect(web.daemon.log.contains("stopped: it was killed by signal 9"), "\(web.daemon.log)")
        // The same port (the first one was picked by the system: port 0), and the show behind it.
        #expect(web.readPort() == port)
        #expect(await OffPool.until(timeout: 30) {
            ((try? web.request("GET", "/api/status"))?.text.contains(#""state":"playing""#)) ?? false
        })
        #expect(web.daemon.isRunning)

        web.daemon.send(signal: SIGTERM)
        #expect(await web.daemon.waitForExit(timeout: 30) == 0, "\(web.daemon.log)")
        // The daemon stopped its server and reaped it before it exited.
        #expect(!Self.isRunning(second))
    }

    @Test func aDaemonKilledOutrightTakesItsWebServerWithIt() async throws {
        let web = try WebDaemon("ls-web-orphan")
        #expect(await web.started(), "\(web.daemon.log)")
        let child = try #require(Self.webPIDs(web.daemon).last, "\(web.daemon.log)")
        web.daemon.send(signal: SIGKILL)
        _ = await web.daemon.waitForExit(timeout: 30)
        // Its standard input, the daemon's pipe, closed with the daemon: it stops by itself.
        #expect(await OffPool.until(timeout: 30) { !Self.isRunning(child) })
    }

    @Test func aSignalToTheDaemonsGroupIsTheDaemonsToPassOn() async throws {
        let directory = try TemporaryDirectory("ls-web-group")
        let config = try directory.write("lightshow.toml", Data(WebDaemon.config("").utf8))
        let logPath = directory.file("daemon.log")
        let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        try #require(log >= 0)
        // A process group of its own, so it can be signalled as a terminal's Ctrl-C or `kill -- -PGID` would.
        let environment = ChildProcess.currentEnvironment(without: ["NOTIFY_SOCKET", "WATCHDOG_USEC"])
            + ["RUNTIME_DIRECTORY=\(directory.path)"]
        let daemon = try ChildProcess.spawn(
            LightshowProcess.executableURL.path,
            arguments: ["lightshow", "daemon", "--input", "demo", "--config", config, "--fps", "20"],
            environment: environment,
            stdout: .descriptor(log), stderr: .descriptor(log), ownProcessGroup: true
        )
        close(log)
        var reaped = false
        defer { if !reaped { kill(daemon, SIGKILL); _ = ChildProcess.wait(daemon, limit: 10_000_000_000) } }
        @Sendable func pids() -> [pid_t] {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line in
                guard let range = line.range(of: "(lightshow-web, pid ") else { return nil }
                return pid_t(line[range.upperBound...].prefix { $0.isNumber })
            }
        }
        #expect(await OffPool.until(timeout: 30) { !pids().isEmpty })
        let child = try #require(pids().last)
        #expect(getpgid(child) != getpgid(daemon))
        kill(-daemon, SIGTERM)
        let ending = try await OffPool.run { ChildProcess.wait(daemon, limit: 30_000_000_000) }
        reaped = true
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        #expect(ending == .exited(0), "\(text)")
        #expect(!Self.isRunning(child))
        // The daemon stopped it: no death taken for a crash, no restart.
        #expect(!text.contains("stopped: it was killed"), "\(text)")
        #expect(!text.contains("starting it again"), "\(text)")
    }

    @Test func ctlMetricsPrintsThePrometheusText() async throws {
        let web = try WebDaemon("ls-web-ctl-metrics")
        #expect(await web.started(), "\(web.daemon.log)")
        let result = try await web.daemon.ctl(["metrics"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("# TYPE lightshow_frames_total counter"))
        #expect(try await Promtool.problems(in: result.stdout) == nil)
        // The web server's series come from the web server's own scrape, not from another client's request.
        #expect(!result.stdout.contains(#"kind="web""#))
        let scrape = try web.request("GET", "/metrics")
        #expect(scrape.status == 200 && scrape.text.contains(#"lightshow_clients{kind="web"}"#), "\(scrape.text)")
        web.daemon.send(signal: SIGTERM)
        #expect(await web.daemon.waitForExit(timeout: 30) == 0, "\(web.daemon.log)")
    }

    @Test(arguments: [
        ("", 64, "is started by `lightshow daemon`"),
        ("{\"socket\":\"/nonexistent\",\"host\":\"127.0.0.1\",\"port\":70000}\n", 64, #""port": expected a port, 0 to 65535"#),
        ("not json\n", 64, "settings on standard input: not JSON"),
    ])
    func runByHandItSaysWhatItNeeds(input: String, status: Int32, message: String) async throws {
        let result = try await OffPool.run { try Launch.run([Self.webExecutable], stdin: Data(input.utf8)) }
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        // The daemon reads the same reason as JSON on standard output.
        #expect(result.stdout.hasPrefix(#"{"error":"#), "\(result.stdout)")
    }
}
