import Foundation
import LightShowControl
import LightShowSystem
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The web server's refusals against the real daemon and `lightshow-web`: a refused request changes nothing, a
/// flood of refusals stays out of the journal, local control keeps working however busy the web is, and a
/// WebSocket handshake without a key gets a 400 that says why.
@Suite(.serialized) struct WebRefusalTests {
    static func status(_ daemon: DaemonProcess) -> JSONValue? {
        (try? ControlClient(path: daemon.socketPath, timeoutSeconds: 30).request("status"))?["result"]
    }

    static func command(_ daemon: DaemonProcess, _ name: String, _ arguments: JSONObject = [:]) throws -> JSONValue {
        try ControlClient(path: daemon.socketPath, timeoutSeconds: 30).request(name, arguments: arguments)
    }

    @Test func aRefusedRequestChangesNothing() async throws {
        let web = try WebDaemon("ls-web-refused", web: "request_timeout = \"1s\"")
        #expect(await web.started(), "\(web.daemon.log)")
        let daemon = web.daemon

        // A body announced and never sent: 408, and the stop it carried never runs.
        let silent = try web.client(timeoutSeconds: 30)
        try silent.send("POST /api/stop HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nContent-Length: 100\r\n\r\n")
        #expect(try silent.readResponse().status == 408)
        #expect(silent.isClosedByServer())
        // A stopped show doesn't pause: if the stop had run, the pause below could never be seen.
        _ = try Self.command(daemon, "pause")
        #expect(await OffPool.until(timeout: 30) { Self.status(daemon)?["state"] == "paused" }, "\(daemon.log)")
        _ = try Self.command(daemon, "play")
        #expect(await OffPool.until(timeout: 30) { Self.status(daemon)?["state"] == "playing" })

        // A broken chunked body: 400, and the toggle it carried never runs.
        let chunked = try web.client(timeoutSeconds: 30)
        try chunked.send("POST /api/toggle HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
        #expect(try chunked.readResponse().status == 400)
        #expect(chunked.isClosedByServer())
        // Commands are taken in order: after a stop, the show is stopped whether or not a toggle ran before it;
        // a pause sent first shows whether one did (toggle twice is playing again, so "paused" means none ran).
        _ = try Self.command(daemon, "toggle")
        #expect(await OffPool.until(timeout: 30) { Self.status(daemon)?["state"] == "paused" }, "\(daemon.log)")
        _ = try Self.command(daemon, "play")

        // A body cut short by the deadline: 408, and the brightness it carried is not set.
        let short = try web.client(timeoutSeconds: 30)
        try short.send("POST /api/set-brightness HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nContent-Length: 40\r\n\r\n{\"brightness\":0.25}")
        #expect(try short.readResponse().status == 408)
        #expect(short.isClosedByServer())
        // set-color goes through the same reload queue, in order, and replies when done.
        #expect(try Self.command(daemon, "set-color", ["color": "#336699"])["ok"] == true)
        #expect(Self.status(daemon)?["brightness"]?.numberValue == 1, "\(String(describing: Self.status(daemon)))")
        #expect(daemon.isRunning)
    }

    @Test func aThousandRefusalsWriteAFewLines() async throws {
        let web = try WebDaemon("ls-web-quiet")
        #expect(await web.started(), "\(web.daemon.log)")
        let before = web.daemon.log.split(separator: "\n").count
        let port = web.port
        try await OffPool.run {
            for index in 0..<1000 {
                let client = try HTTPTestClient(port: port)
                switch index % 4 {
                case 0: _ = try client.request("GET", "/favicon.ico", port: port)
                case 1: _ = try client.request("GET", "/api/status", port: port, headers: ["Host": "evil.example:\(port)"])
                case 2: _ = try client.request("GET", "/api/frames", port: port, headers: ["Upgrade": "websocket", "Connection": "Upgrade"])
                default:
                    try client.send("GARBAGE\r\n\r\n")
                    _ = try client.readResponse()
                }
            }
        }
        // The last refusal has been answered; its line, if any, was written before the answer.
        let lines = web.daemon.log.split(separator: "\n").dropFirst(before)
        #expect(lines.count <= 20, "\(lines.count) lines: \(lines.prefix(30).joined(separator: "\n"))")
        #expect(!web.daemon.log.contains("Error handling upgrade result"))
        // Counted all the same.
        let metrics = try web.request("GET", "/metrics").text
        for reason in ["not_found", "host", "bad_request"] {
            let line = metrics.split(separator: "\n").first { $0.hasPrefix("lightshow_web_refusals_total{reason=\"\(reason)\"}") }
            let count = line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
            #expect(count >= 250, "\(reason): \(String(describing: line))")
        }
    }

    @Test func localControlWorksWhileTheWebIsBusy() async throws {
        let web = try WebDaemon("ls-web-busy")
        #expect(await web.started(), "\(web.daemon.log)")
        let port = web.port
        let stop = Locked(false)
        let served = Locked(0)
        // 64 clients on threads of their own: their blocking sockets must not hold the cooperative pool.
        let finished = DispatchGroup()
        for _ in 0..<64 {
            finished.enter()
            Thread.detachNewThread {
                while !stop.withLock({ $0 }) {
                    guard let response = try? HTTPTestClient(port: port, timeoutSeconds: 30).request("GET", "/api/status", port: port) else { continue }
                    if response.status == 200 { served.withLock { $0 += 1 } }
                }
                finished.leave()
            }
        }
        // The web is busy once its clients have been answered a good many times.
        #expect(await OffPool.until(timeout: 60) { served.withLock { $0 } >= 200 })
        var failures: [String] = []
        for _ in 0..<40 {
            let result = try await web.daemon.ctl(["status"])
            if result.status != 0 { failures.append(result.stderr) }
        }
        stop.withLock { $0 = true }
        _ = try await OffPool.run { finished.wait(timeout: .now() + 60) }
        #expect(failures.isEmpty, "\(failures.count) of 40 ctl status failed: \(failures.prefix(3))")
        #expect(served.withLock { $0 } >= 200)
    }

    @Test func aWebSocketHandshakeWithoutAKeyIsRefusedWith400() async throws {
        let web = try WebDaemon("ls-web-nokey")
        #expect(await web.started(), "\(web.daemon.log)")
        let client = try web.client()
        let response = try client.request("GET", "/api/frames", port: web.port, headers: [
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
        ])
        #expect(response.status == 400, "\(response)")
        #expect(response.header("content-type") == "application/json")
        #expect(response.text.contains(#""ok":false"#) && response.text.contains("Sec-WebSocket-Key"), "\(response)")
        // With a key it upgrades.
        #expect(try web.client().upgrade("/api/frames", port: web.port).status == 101)
    }
}
