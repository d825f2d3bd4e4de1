import Foundation
import LightShowControl
import LightShowSystem
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's web server, against the real daemon on loopback: the REST mirror answers exactly as the control
/// socket does, the WebSocket streams the scene and frames, and hostile clients each get a clear status while the
/// daemon keeps serving.
@Suite(.serialized) struct DaemonWebTests {
    /// The control socket's reply line for `line` (a request without an id, so its reply has `"id":null`).
    static func socketReply(_ daemon: DaemonProcess, _ line: String) throws -> String {
        let client = try ControlClient(path: daemon.socketPath, timeoutSeconds: 30)
        try client.send(Array((line + "\n").utf8))
        return String(decoding: try client.readLine() ?? [], as: UTF8.self) + "\n"
    }

    /// `lightshow_reloads_total{result=RESULT}` from the daemon's metrics.
    static func reloads(_ daemon: DaemonProcess, _ result: String) throws -> Double? {
        let reply = try JSONParser.parse(Array(try socketReply(daemon, #"{"cmd":"metrics"}"#).utf8))
        return ScrapedMetrics(reply["result"]?["text"]?.stringValue ?? "")[#"lightshow_reloads_total{result="\#(result)"}"#]
    }

    /// A reload asked for through the API is logged as the web's, not as `ctl reload`.
    @Test func aReloadFromTheWebIsLoggedAsTheWebs() async throws {
        let web = try WebDaemon("ls-web-reload-caller")
        #expect(await web.started(), "\(web.daemon.log)")
        #expect(try web.request("POST", "/api/reload").status == 200)
        #expect(await OffPool.until(timeout: 30) { web.daemon.log.contains("reloaded (web POST /api/reload)") }, "\(web.daemon.log)")
        #expect(!web.daemon.log.contains("ctl reload"), "\(web.daemon.log)")
        // ctl status names the server, its address and its process.
        let pid = try #require(WebServerProcessTests.webPIDs(web.daemon).last)
        let status = try await web.daemon.ctl(["status"])
        #expect(status.stdout.contains("Web:     serving http://127.0.0.1:\(web.port)/ (lightshow-web, pid \(pid))"), "\(status.stdout)")
    }

    /// Who asked for a reload is told by the connection (the kernel's word that the web server is the daemon's
    /// child), not by the request: a local client claiming to be the web is logged as `ctl reload`.
    @Test func aLocalClientCannotPassForTheWeb() async throws {
        let web = try WebDaemon("ls-web-reload-peer")
        #expect(await web.started(), "\(web.daemon.log)")
        let reply = try Self.socketReply(web.daemon, #"{"cmd":"reload","from":"web"}"#)
        #expect(reply.contains(#""ok":true"#), "\(reply)")
        #expect(await OffPool.until(timeout: 30) { web.daemon.log.contains("reloaded (ctl reload)") }, "\(web.daemon.log)")
        #expect(!web.daemon.log.contains("web POST /api/reload"), "\(web.daemon.log)")
        #expect(try web.request("POST", "/api/reload").status == 200)
        #expect(await OffPool.until(timeout: 30) { web.daemon.log.contains("reloaded (web POST /api/reload)") }, "\(web.daemon.log)")
    }

    /// The daemon still answers the API and the control socket.
    static func stillServing(_ web: WebDaemon) throws -> Bool {
        let status = try web.request("GET", "/api/status")
        let socket = try socketReply(web.daemon, #"{"cmd":"status"}"#)
        return status.status == 200 && status.text.contains(#""ok":true"#) && socket.contains(#""ok":true"#)
    }

    @Test func restRepliesEqualTheSocketsReplies() async throws {
        let web = try WebDaemon("ls-web-rest")
        #expect(await web.started(), "\(web.daemon.log)")
        let daemon = web.daemon

        // Each pair leaves the daemon as the other found it, so the socket's reply is to the same state.
        let commands: [(String, String, Int)] = [
            ("pause", "", 200), ("pause", "", 200), ("play", "", 200), ("toggle", "", 200), ("toggle", "", 200),
            ("set-band", #"{"band":"bass","lower":30,"upper":200}"#, 200),
            ("set-color", ##"{"color":"#336699"}"##, 200),
            ("set-color", ##"{"band":"mid","color":"#112233"}"##, 200),
            ("set-color", ##"{"band":"sub","color":"#112233"}"##, 400),
            ("set-brightness", #"{"brightness":0.5}"#, 200),
            ("set-band", #"{"band":"bass","lower":300,"upper":200}"#, 400),
            ("set-band", #"{"band":"sub"}"#, 400),
            ("set-color", #"{"color":"green"}"#, 400),
            ("set-brightness", #"{"brightness":2}"#, 400),
            ("set-input", #"{"input":5}"#, 400),
            ("reload", "", 200),
        ]
        func compare(_ command: String, _ body: String, _ status: Int) throws {
            let rest = try web.request("POST", "/api/\(command)", body: body)
            let arguments = body.isEmpty ? "" : "," + body.dropFirst().dropLast()
            let socket = try Self.socketReply(daemon, #"{"cmd":"\#(command)""# + arguments + "}")
            #expect(rest.status == status, "\(command) \(body): \(rest)")
            #expect(rest.header("content-type") == "application/json")
            #expect(rest.text == socket, "\(command) \(body)")
        }
        for (command, body, status) in commands { try compare(command, body, status) }

        // Playback commands are only sent: the engine takes them in order a moment later. Waiting for each new
        // state (stopped, then playing) leaves none of them pending when the two statuses are asked for.
        for (command, state) in [("stop", "stopped"), ("play", "playing")] {
            try compare(command, "", 200)
            #expect(await OffPool.until(timeout: 30) {
                (try? web.request("GET", "/api/status"))?.text.contains(#""state":"\#(state)""#) ?? false
            }, "\(command): \(daemon.log)")
        }
        // status: the same object; levels and connection counts move between the two asks, the rest is equal.
        let rest = try JSONParser.parse(try web.request("GET", "/api/status").body)
        let socket = try JSONParser.parse(Array(try Self.socketReply(daemon, #"{"cmd":"status"}"#).utf8))
        #expect(rest["id"] == .null && rest["ok"] == true)
        guard case .object(let restResult)? = rest["result"], case .object(let socketResult)? = socket["result"] else {
            Issue.record("status results: \(rest) \(socket)")
            return
        }
        #expect(restResult.keys == socketResult.keys)
        for key in ["device", "rate", "channels", "state", "title", "bands", "config", "brightness", "mqtt", "lights"] {
            #expect(restResult[key] == socketResult[key], "\(key)")
        }

        // set-color with a band colours that light only.
        #expect(try web.request("POST", "/api/set-color", body: ##"{"band":"mid","color":"#112233"}"##).status == 200)
        let coloured = try JSONParser.parse(try web.request("GET", "/api/status").body)
        #expect(coloured["result"]?["bands"]?["mid"]?["color"] == .string("#112233"), "\(coloured)")
        #expect(coloured["result"]?["bands"]?["bass"]?["color"] != .string("#112233"), "\(coloured)")

        // Bodies that aren't a command's arguments: the socket's kind of reply, and 400.
        for body in ["[1]", "{", #"{"cmd":"stop"}"#] {
            let reply = try web.request("POST", "/api/play", body: body)
            #expect(reply.status == 400, "\(body): \(reply)")
            #expect(reply.text.hasPrefix(#"{"id":null,"ok":false,"error":"body: "#), "\(reply)")
        }
        // The page needs no token and is the embedded file.
        let page = try web.request("GET", "/")
        #expect(page.status == 200 && page.header("content-type") == "text/html; charset=utf-8" && page.text.contains("<"))
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0, "\(daemon.log)")
    }

    @Test func hostileRequestsGetClearStatusesAndTheDaemonKeepsServing() async throws {
        let token = "0123456789abcdef0123"
        let web = try WebDaemon("ls-web-hostile", web: "token = \"\(token)\"\nmax_body = 1024")
        web.token = token
        #expect(await web.started(), "\(web.daemon.log)")
        let port = web.port

        func raw(_ bytes: String) throws -> HTTPTestClient.Response {
            let client = try web.client()
            try client.send(bytes)
            return try client.readResponse()
        }
        let host = "Host: 127.0.0.1:\(port)\r\n"
        let cases: [(String, () throws -> HTTPTestClient.Response, Int)] = [
            ("no token", { try HTTPTestClient(port: port).request("GET", "/api/status", port: port) }, 401),
            ("wrong token", { try web.request("GET", "/api/status", headers: ["Authorization": "Bearer \(token)x"]) }, 401),
            ("no token for metrics", { try HTTPTestClient(port: port).request("GET", "/metrics", port: port) }, 401),
            ("wrong Host", { try web.request("GET", "/api/status", headers: ["Host": "rebind.example:\(port)"]) }, 421),
            ("wrong Origin", { try web.request("POST", "/api/stop", headers: ["Origin": "http://evil.example"]) }, 403),
            ("wrong Origin upgrade", { try web.client().upgrade("/api/frames", port: port, headers: web.auth.merging(["Origin": "http://evil.example"]) { $1 }) }, 403),
            ("no token upgrade", { try web.client().upgrade("/api/frames", port: port) }, 401),
            ("malformed line", { try raw("GARBAGE\r\n\r\n") }, 400),
            ("bad version", { try raw("GET / HTTP/9.9\r\n\(host)\r\n") }, 400),
            ("huge target", { try raw("GET /\(String(repeating: "a", count: 40_000)) HTTP/1.1\r\n\(host)\r\n") }, 431),
            ("long target", { try raw("GET /\(String(repeating: "a", count: 4000)) HTTP/1.1\r\n\(host)\r\n") }, 414),
            ("huge header", { try raw("GET / HTTP/1.1\r\n\(host)X-Big: \(String(repeating: "b", count: 40_000))\r\n\r\n") }, 431),
            ("many headers", { try raw("GET / HTTP/1.1\r\n\(host)" + (0..<300).map { "X-\($0): 1\r\n" }.joined() + "\r\n") }, 431),
            ("two Hosts", { try raw("GET / HTTP/1.1\r\n\(host)Host: evil.example\r\n\r\n") }, 400),
            ("big body", { try web.request("POST", "/api/set-band", body: "{\"band\":\"" + String(repeating: "x", count: 5000) + "\"}") }, 413),
            ("big chunked body", {
                try raw("POST /api/play HTTP/1.1\r\n\(host)Authorization: Bearer \(token)\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + String(repeating: "400\r\n" + String(repeating: " ", count: 1024) + "\r\n", count: 3))
            }, 413),
            ("bad chunk", { try raw("POST /api/play HTTP/1.1\r\n\(host)Authorization: Bearer \(token)\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n") }, 400),
            ("unknown command", { try web.request("POST", "/api/explode") }, 404),
            ("wrong method", { try web.request("DELETE", "/api/status") }, 405),
            ("plain GET of the WebSocket", { try web.request("GET", "/api/frames") }, 426),
        ]
        for (name, send, status) in cases {
            let response = try send()
            #expect(response.status == status, "\(name): \(response)")
            #expect(response.header("content-type") == "application/json", "\(name)")
            #expect(response.text.hasPrefix(#"{"#) && response.text.contains(#""ok":false,"error":""#), "\(name): \(response)")
            #expect(try Self.stillServing(web), "after \(name)")
        }
        #expect(web.daemon.isRunning)
    }

    @Test func aSlowClientIsAnswered408AndHoldsNoOneBack() async throws {
        let web = try WebDaemon("ls-web-slow", web: "request_timeout = \"1s\"\nidle_timeout = \"1s\"")
        #expect(await web.started(), "\(web.daemon.log)")
        let port = web.port
        // Slowloris: a header line trickled a byte at a time never completes the request.
        let slow = try web.client(timeoutSeconds: 30)
        try slow.send("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Slow: ")
        let started = ProcessInfo.processInfo.systemUptime
        var response: HTTPTestClient.Response?
        let trickle = Task.detached {
            for _ in 0..<100 {
                guard (try? slow.send("a")) != nil else { return }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        // Meanwhile others are served at once.
        #expect(try Self.stillServing(web))
        response = try await OffPool.run { try slow.readResponse() }
        trickle.cancel()
        #expect(response?.status == 408, "\(String(describing: response))")
        #expect(response?.text.contains("request not received whole within 1s") == true)
        // Timed from the first byte: a timer that each trickled byte restarted would answer only once the 10 s
        // trickle ended. The slack over the 1 s is for a loaded machine.
        let answeredIn = ProcessInfo.processInfo.systemUptime - started
        #expect(answeredIn < 6, "answered after \(answeredIn) s")
        #expect(slow.isClosedByServer())

        // A connection that says nothing at all is answered 408 too; an idle keep-alive one is closed.
        let silent = try web.client()
        #expect(try silent.readResponse().status == 408)
        let idle = try web.client()
        #expect(try idle.request("GET", "/", port: port).status == 200)
        #expect(idle.isClosedByServer())
        #expect(try Self.stillServing(web))
    }

    @Test func aThousandConnectionsAreCappedAndAnswered() async throws {
        #expect(OpenFileLimit.raise(to: 4096) >= 2100, "this test needs about 2,100 descriptors")
        let web = try WebDaemon("ls-web-many", web: "max_connections = 50")
        #expect(await web.started(), "\(web.daemon.log)")
        let port = web.port
        let statuses = try await OffPool.run { () throws -> [Int] in
            var clients: [HTTPTestClient] = []
            for _ in 0..<1000 {
                let client = try HTTPTestClient(port: port, timeoutSeconds: 30)
                try client.send("GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
                clients.append(client)
            }
            return try clients.map { try $0.readResponse().status }
        }
        // 503 past the server's cap, and for a served request the daemon turned away: the web server's requests to
        // it, as many as 50 at once on a loaded machine, can fill its control socket's 16 slots.
        let ok = statuses.count { $0 == 200 }, refused = statuses.count { $0 == 503 }
        #expect(ok + refused == 1000, "\(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count))")
        #expect(ok >= 1 && ok <= 50, "\(ok) served")
        // The served connections hold their slots until the server has seen them close, a moment after the clients
        // went: then it serves again.
        #expect(await OffPool.until(timeout: 30) { (try? Self.stillServing(web)) == true })
        #expect(web.daemon.isRunning)
    }

    @Test func theWebSocketStreamsTheSceneThenFrames() async throws {
        let web = try WebDaemon("ls-web-frames")
        #expect(await web.started(), "\(web.daemon.log)")
        let viewer = try web.client()
        #expect(try viewer.upgrade("/api/frames?fps=10", port: web.port).status == 101)
        let first = try #require(try viewer.readTextMessage())
        let scene = try JSONParser.parse(Array(first.utf8))
        #expect(ShowSceneEvent.decode(scene) != nil, "\(first)")

        // The same scene a control-socket subscriber gets.
        let subscriber = try ControlClient(path: web.daemon.socketPath, timeoutSeconds: 30)
        #expect(try subscriber.request("subscribe", arguments: ["fps": 10])["ok"] == true)
        #expect(try subscriber.readJSON() == scene)

        var frames = 0
        var index = -1.0
        while frames < 10, let message = try viewer.readTextMessage() {
            let event = try JSONParser.parse(Array(message.utf8))
            let frame = try #require(ShowFrameEvent.decode(event), "\(message)")
            #expect(Double(frame.index) > index)
            index = Double(frame.index)
            frames += 1
        }
        #expect(frames == 10)

        // A change of scene reaches the viewer before its next frames.
        #expect(try web.request("POST", "/api/set-band", body: #"{"band":"bass","lower":40,"upper":180}"#).status == 200)
        var retuned = false
        for _ in 0..<100 {
            guard let message = try viewer.readTextMessage() else { break }
            if message.contains(#""event":"scene""#) {
                retuned = message.contains(#""bass":{"lower":40,"upper":180"#)
                break
            }
        }
        #expect(retuned)
    }

    @Test func aViewerThatStopsReadingChangesNoOtherViewersRate() async throws {
        let web = try WebDaemon("ls-web-stall", web: "request_timeout = \"1s\"", arguments: ["--fps", "60"])
        #expect(await web.started(), "\(web.daemon.log)")
        let port = web.port

        let reader = try web.client()
        #expect(try reader.upgrade("/api/frames?fps=20", port: port).status == 101)
        let alone = try await OffPool.run { try Self.framesRead(by: reader, for: 2) }

        // The stalled viewer asks for 60 frames a second and reads nothing, with a small receive window.
        let stalled = try HTTPTestClient(port: port, timeoutSeconds: 5, receiveBuffer: 2048)
        #expect(try stalled.upgrade("/api/frames?fps=60", port: port).status == 101)
        let beside = try await OffPool.run { try Self.framesRead(by: reader, for: 12) }
        #expect(Double(beside) / 12 >= Double(alone) / 2 * 0.85, "alone \(alone) in 2 s, beside a stalled viewer \(beside) in 12 s")

        // The stalled viewer was never queued for: once its writes stalled the server closed it, and what it
        // finally reads is bounded.
        let (leftover, closed) = try await OffPool.run { () -> (Int, Bool) in
            var bytes = 0
            let end = ProcessInfo.processInfo.systemUptime + 20
            while ProcessInfo.processInfo.systemUptime < end {
                guard let message = try? stalled.readTextMessage() else { return (bytes, true) }
                bytes += message.utf8.count
            }
            return (bytes, false)
        }
        #expect(closed, "the stalled viewer is still served after \(leftover) bytes")
        #expect(leftover < 2_000_000, "\(leftover) bytes waited for the stalled viewer")
        #expect(try Self.stillServing(web))
    }

    /// Frames a reading viewer gets in `seconds`.
    static func framesRead(by viewer: HTTPTestClient, for seconds: Double) throws -> Int {
        let end = ProcessInfo.processInfo.systemUptime + seconds
        var count = 0
        while ProcessInfo.processInfo.systemUptime < end, let message = try viewer.readTextMessage() {
            if message.contains(#""event":"frame""#) { count += 1 }
        }
        return count
    }

    @Test func reloadMovesTheListenerOrKeepsTheOldOne() async throws {
        let web = try WebDaemon("ls-web-reload")
        #expect(await web.started(), "\(web.daemon.log)")
        let first = web.port

        // A port that is taken: the reload fails and says why; the old listener keeps serving.
        let blocker = try HTTPTestListener()
        try Data(WebDaemon.config("", listen: "127.0.0.1:\(blocker.port)").utf8).write(to: URL(fileURLWithPath: web.configPath))
        let failed = try Self.socketReply(web.daemon, #"{"cmd":"reload"}"#)
        #expect(failed.contains(#""ok":false"#) && failed.contains("web.listen: cannot listen on 127.0.0.1:\(blocker.port)"), "\(failed)")
        #expect(failed.contains("still serving 127.0.0.1:0"), "\(failed)")
        #expect(try Self.stillServing(web))
        // Counted as a failed reload, as any other reason to keep the running configuration is.
        #expect(try Self.reloads(web.daemon, "failed") == 1)
        #expect(try Self.reloads(web.daemon, "ok") == 0)

        // A free one: the listener moves there and the old port closes.
        try Data(WebDaemon.config("").utf8).write(to: URL(fileURLWithPath: web.configPath))
        try Data(WebDaemon.config("max_connections = 8").utf8).write(to: URL(fileURLWithPath: web.configPath))
        let moved = try Self.socketReply(web.daemon, #"{"cmd":"reload"}"#)
        #expect(moved.contains(#""ok":true"#), "\(moved)")
        #expect(try Self.reloads(web.daemon, "ok") == 1)
        #expect(await OffPool.until(timeout: 10) { web.readPort() != first })
        let second = try #require(web.readPort())
        #expect(try HTTPTestClient(port: second).request("GET", "/api/status", port: second).status == 200)
        #expect(!SocketProbe.canConnect(port: UInt16(first)))

        // Off: no listener at all.
        try Data("".utf8).write(to: URL(fileURLWithPath: web.configPath))
        #expect(try Self.socketReply(web.daemon, #"{"cmd":"reload"}"#).contains(#""ok":true"#))
        #expect(!SocketProbe.canConnect(port: UInt16(second)))
    }
}
