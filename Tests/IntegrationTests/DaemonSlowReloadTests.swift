import Foundation
import LightShowControl
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A reload can block for seconds: a light's host name whose DNS server never answers. It blocks a thread of its
/// own, never the daemon's async pool, so the daemon keeps answering however many reloads wait, and stops at once.
@Suite(.serialized) struct DaemonSlowReloadTests {
    /// Takes every query and answers none.
    static let silentDNSServer = """
        import socket
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 53))
        print("ready", flush=True)
        while True:
            s.recv(512)
            print("query", flush=True)
        """

    @Test func statusAnswersWhileReloadsWaitForADNSServerThatNeverAnswers() async throws {
        let namespace = try NetworkNamespace(prefix: "lsdns")
        try namespace.setResolverConfiguration("nameserver 127.0.0.1\noptions timeout:5 attempts:1\n")
        let directory = try TemporaryDirectory("ls-slow-reload")
        let dnsLog = directory.file("dns.log")
        let server = try namespace.start(["python3", "-c", Self.silentDNSServer], output: dnsLog)
        defer { server.terminate() }
        #expect(await OffPool.until(timeout: 10) { (try? String(contentsOfFile: dnsLog, encoding: .utf8))?.contains("ready") == true })

        let file = try directory.write("lightshow.toml", Data("[input]\nsource = \"demo\"\n".utf8))
        let daemon = try DaemonProcess(["--config", file], directory: directory, launcher: namespace.command)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        #expect(await OffPool.until(timeout: 30) { (try? HostileDaemonTests.status(daemon)["ok"]) == true }, "\(daemon.log)")

        let lights = "[[lights]]\nprotocol = \"ddp\"\naddress = \"lights.example.invalid\"\npixels = 30\n"
        try Data("[input]\nsource = \"demo\"\n\(lights)".utf8).write(to: URL(fileURLWithPath: file))
        // More reloads than this machine has cores: each waits for the lookup, or for the reload before it.
        // SIGHUP's reload waits for the DNS server; the control socket's reloads wait for it.
        daemon.send(signal: SIGHUP)
        #expect(await OffPool.until(timeout: 10) {
            (try? String(contentsOfFile: dnsLog, encoding: .utf8))?.contains("query") == true
        }, "the reload never asked the DNS server")
        let descriptors = "/proc/\(daemon.pid)/fd"
        let idle = try FileManager.default.contentsOfDirectory(atPath: descriptors).count
        let reloads = (0..<4).map { _ in Task { try await daemon.ctl(["reload"]) } }
        // Every reload's connection is open (its request read at once).
        #expect(await OffPool.until(timeout: 10) {
            (try? FileManager.default.contentsOfDirectory(atPath: descriptors).count).map { $0 >= idle + reloads.count } == true
        }, "not every reload reached the daemon")
        let asked = ContinuousClock.now
        #expect(try HostileDaemonTests.status(daemon)["ok"] == true)
        let answeredIn = asked.duration(to: .now)
        #expect(answeredIn < .milliseconds(1500), "status took \(answeredIn)")
        // No reload got past its lookup: a line "] reloaded (…)", "] reload (…) failed" or "] reload: <host> …"
        // would say so.
        #expect(!daemon.log.contains("] reload"), "status answered only after a reload had ended: \(daemon.log)")

        // SIGTERM doesn't wait for the reloads (each would take a lookup's 5 s): systemd's TimeoutStopSec is 5 s.
        let started = ContinuousClock.now
        daemon.send(signal: SIGTERM)
        let pid = daemon.pid
        #expect(await OffPool.until(timeout: 20) { HostileDaemonTests.hasExited(pid) })
        let took = started.duration(to: .now)
        #expect(await daemon.waitForExit(timeout: 10) == 0, "\(daemon.log)")
        #expect(took < .seconds(2), "SIGTERM took \(took)")
        for reload in reloads { _ = try? await reload.value }
    }
}
