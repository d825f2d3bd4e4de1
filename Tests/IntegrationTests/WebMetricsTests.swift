import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The web server's viewers in `/metrics`: a WebSocket viewer of `/api/frames` is counted while it watches and no
/// longer once it leaves.
@Suite struct WebMetricsTests {
    /// A WebSocket viewer (Python's standard library has no client: the handshake by hand). Prints the status line,
    /// reads frames until its standard input closes, then closes.
    static let viewer = """
        import base64, os, select, socket, sys
        port = int(sys.argv[1])
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        s.sendall(("GET /api/frames?fps=30 HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\nUpgrade: websocket\\r\\n"
                   "Connection: Upgrade\\r\\nSec-WebSocket-Key: %s\\r\\nSec-WebSocket-Version: 13\\r\\n\\r\\n" % (port, key)).encode())
        head = b""
        while b"\\r\\n\\r\\n" not in head:
            chunk = s.recv(4096)
            if not chunk:
                sys.exit("closed during the handshake")
            head += chunk
        print(head.split(b"\\r\\n")[0].decode(), flush=True)
        while True:
            ready, _, _ = select.select([sys.stdin, s], [], [], 60)
            if not ready or sys.stdin in ready or not s.recv(65536):
                break
        s.close()
        """

    @Test func aWebSocketViewerIsCountedWhileItWatches() async throws {
        let directory = try TemporaryDirectory("ls-daemon-web-metrics")
        let webPort = try MPDServer.freePort()
        let daemon = try DaemonProcess(["--input", "demo", "--web", "127.0.0.1:\(webPort)"], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        let url = "http://127.0.0.1:\(webPort)/metrics"
        @Sendable func metric(_ series: String) -> Double? {
            CurlRequest.get(url).flatMap { ScrapedMetrics($0.body)[series] }
        }
        #expect(await OffPool.until(timeout: 30) { metric(#"lightshow_viewers{kind="web"}"#) == 0 }, "\(daemon.log)")
        // With nobody watching, the web server takes no frames from the daemon.
        #expect(metric(#"lightshow_viewers{kind="subscriber"}"#) == 0)

        let input = Pipe(), output = Pipe()
        let viewer = try Launch.start(["/usr/bin/python3", "-c", Self.viewer, "\(webPort)"], standardInput: input, standardOutput: output)
        // SIGKILL: a child of the test runner inherits its blocked SIGTERM.
        defer { kill(viewer.processIdentifier, SIGKILL) }
        let status = try await OffPool.run { String(decoding: output.fileHandleForReading.availableData, as: UTF8.self) }
        #expect(status.hasPrefix("HTTP/1.1 101"), "\(status)")
        #expect(await OffPool.until(timeout: 30) { metric(#"lightshow_viewers{kind="web"}"#) == 1 })
        // The viewer's connection and the scrape's own.
        #expect((metric(#"lightshow_clients{kind="web"}"#) ?? 0) >= 2)
        // Its frames come through the web server's one subscription to the daemon, which its relay thread makes
        // once the viewer is counted.
        #expect(await OffPool.until(timeout: 30) { metric(#"lightshow_viewers{kind="subscriber"}"#) == 1 })

        try input.fileHandleForWriting.close()
        #expect(await OffPool.until(timeout: 30) { !viewer.isRunning })
        #expect(await OffPool.until(timeout: 30) { metric(#"lightshow_viewers{kind="web"}"#) == 0 })
        // The last viewer gone, the web server lets go of the daemon's frames.
        #expect(await OffPool.until(timeout: 30) { metric(#"lightshow_viewers{kind="subscriber"}"#) == 0 })

        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 30) == 0, "\(daemon.log)")
    }
}
