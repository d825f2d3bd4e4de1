@testable import LightShowControl
@testable import LightShowWeb
import Testing

/// The pure decisions about a request: route and method, `Host` (no DNS rebinding), `Origin` on what changes state,
/// the token, the query, and the body's JSON.
@Suite struct WebRequestPolicyTests {
    static let port = 8490
    static let open = WebRequestPolicy(listenHost: "127.0.0.1", port: port, token: nil)
    static let locked = WebRequestPolicy(
        listenHost: "0.0.0.0", port: port, extraHosts: ["LightShow.local", "192.168.1.20", "fe80::1"], token: "0123456789abcdef"
    )

    static func request(
        _ method: String, _ target: String, host: String? = "127.0.0.1:8490", origin: String? = nil,
        authorization: String? = nil, upgrade: Bool = false
    ) -> WebRequestPolicy.Request {
        .init(method: method, target: target, host: host, origin: origin, authorization: authorization, upgradesToWebSocket: upgrade)
    }

    static func status(_ policy: WebRequestPolicy, _ request: WebRequestPolicy.Request) -> Int {
        switch policy.decide(request) {
        case .success: 200
        case .failure(let rejection): rejection.status
        }
    }

    @Test func routesAndMethods() throws {
        let policy = Self.open
        #expect(try policy.decide(Self.request("GET", "/")).get() == .page)
        #expect(try policy.decide(Self.request("HEAD", "/")).get() == .page)
        #expect(try policy.decide(Self.request("GET", "/metrics")).get() == .metrics)
        #expect(try policy.decide(Self.request("GET", "/api/status")).get() == .command(.status))
        for command in ControlCommand.allCases where command != .status && command != .subscribe && command != .metrics {
            #expect(try policy.decide(Self.request("POST", "/api/\(command.rawValue)")).get() == .command(command))
            #expect(Self.status(policy, Self.request("GET", "/api/\(command.rawValue)")) == 405)
        }
        #expect(try policy.decide(Self.request("GET", "/api/frames", upgrade: true)).get() == .frames(framesPerSecond: 30))
        #expect(try policy.decide(Self.request("GET", "/api/frames?fps=60", upgrade: true)).get() == .frames(framesPerSecond: 60))
        #expect(try policy.decide(Self.request("GET", "/api/frames?x=1&fps=12.5", upgrade: true)).get() == .frames(framesPerSecond: 12.5))

        guard case .failure(let post) = policy.decide(Self.request("POST", "/")) else { Issue.record("POST / allowed"); return }
        #expect(post.status == 405 && post.allow == "GET, HEAD")
        #expect(Self.status(policy, Self.request("POST", "/api/status")) == 405)
        #expect(Self.status(policy, Self.request("POST", "/api/subscribe")) == 404)
        #expect(Self.status(policy, Self.request("POST", "/api/explode")) == 404)
        #expect(Self.status(policy, Self.request("GET", "/etc/passwd")) == 404)
        #expect(Self.status(policy, Self.request("GET", "/api/frames")) == 426)
        #expect(Self.status(policy, Self.request("GET", "/" + String(repeating: "a", count: 3000))) == 414)
    }

    @Test func framesPerSecondIsChecked() {
        for bad in ["0", "61", "abc", "nan", "inf", "-1", "1e400", ""] {
            let decision = Self.open.decide(Self.request("GET", "/api/frames?fps=\(bad)", upgrade: true))
            guard case .failure(let rejection) = decision else { Issue.record("fps=\(bad) allowed"); continue }
            #expect(rejection.status == 400 && rejection.message.hasPrefix("fps must be a number from 1 to 60"), "\(bad)")
        }
    }

    @Test func hostMustNameThisServer() {
        let policy = Self.open
        for host in ["127.0.0.1:8490", "localhost:8490", "LOCALHOST:8490", "[::1]:8490"] {
            #expect(Self.status(policy, Self.request("GET", "/", host: host)) == 200, "\(host)")
        }
        for host in ["evil.example:8490", "127.0.0.1:8491", "127.0.0.1", "127.0.0.1:", "127.0.0.1:x", "[::1", "localhost:8490:1", "0.0.0.0:8490"] {
            #expect(Self.status(policy, Self.request("GET", "/", host: host)) == 421, "\(host)")
        }
        #expect(Self.status(policy, Self.request("GET", "/", host: nil)) == 400)
        #expect(Self.status(policy, Self.request("GET", "/", host: "")) == 400)

        // A LAN listener: the names in [web] hosts, in any case; a wildcard listen address is no name.
        let lan = Self.locked
        for host in ["lightshow.local:8490", "192.168.1.20:8490", "[fe80::1]:8490", "localhost:8490"] {
            #expect(Self.status(lan, Self.request("GET", "/", host: host)) == 200, "\(host)")
        }
        #expect(Self.status(lan, Self.request("GET", "/", host: "0.0.0.0:8490")) == 421)
        #expect(Self.status(lan, Self.request("GET", "/", host: "rebind.attacker.example:8490")) == 421)
    }

    @Test func originMustBeThePagesOwnForWhatChangesState() {
        let policy = Self.open
        #expect(Self.status(policy, Self.request("POST", "/api/play")) == 200)
        #expect(Self.status(policy, Self.request("POST", "/api/play", origin: "http://127.0.0.1:8490")) == 200)
        #expect(Self.status(policy, Self.request("POST", "/api/play", host: "localhost:8490", origin: "http://LOCALHOST:8490")) == 200)
        for origin in ["http://evil.example", "null", "http://127.0.0.1:8491", "https://127.0.0.1:8490", "http://localhost:8490"] {
            #expect(Self.status(policy, Self.request("POST", "/api/play", origin: origin)) == 403, "\(origin)")
            #expect(Self.status(policy, Self.request("GET", "/api/frames", origin: origin, upgrade: true)) == 403, "\(origin)")
        }
        // Reading the page or the status from another origin changes nothing (and CORS keeps the answer from it).
        #expect(Self.status(policy, Self.request("GET", "/", origin: "http://evil.example")) == 200)
    }

    @Test func theTokenGuardsTheAPIFramesAndMetrics() {
        let lan = Self.locked
        let host = "lightshow.local:8490"
        #expect(Self.status(lan, Self.request("GET", "/", host: host)) == 200)
        for (method, target, upgrade) in [("GET", "/api/status", false), ("POST", "/api/stop", false), ("GET", "/metrics", false), ("GET", "/api/frames", true)] {
            #expect(Self.status(lan, Self.request(method, target, host: host, upgrade: upgrade)) == 401, "\(target)")
            #expect(Self.status(lan, Self.request(method, target, host: host, authorization: "Bearer wrong", upgrade: upgrade)) == 401)
            #expect(Self.status(lan, Self.request(method, target, host: host, authorization: "Bearer 0123456789abcdeF", upgrade: upgrade)) == 401)
            #expect(Self.status(lan, Self.request(method, target, host: host, authorization: "Bearer 0123456789abcdef0", upgrade: upgrade)) == 401)
            #expect(Self.status(lan, Self.request(method, target, host: host, authorization: "Basic 0123456789abcdef", upgrade: upgrade)) == 401)
            #expect(Self.status(lan, Self.request(method, target, host: host, authorization: "Bearer 0123456789abcdef", upgrade: upgrade)) == 200)
            #expect(Self.status(lan, Self.request(method, target, host: host, authorization: "bearer  0123456789abcdef ", upgrade: upgrade)) == 200)
        }
        // ?token= only for the WebSocket (a browser can't set its headers), percent-decoded.
        #expect(Self.status(lan, Self.request("GET", "/api/frames?token=0123456789abcdef", host: host, upgrade: true)) == 200)
        #expect(Self.status(lan, Self.request("GET", "/api/frames?fps=5&token=%30123456789abcdef", host: host, upgrade: true)) == 200)
        #expect(Self.status(lan, Self.request("GET", "/api/frames?token=nope", host: host, upgrade: true)) == 401)
        #expect(Self.status(lan, Self.request("GET", "/api/frames?token=%zz", host: host, upgrade: true)) == 401)
        #expect(Self.status(lan, Self.request("GET", "/api/status?token=0123456789abcdef", host: host)) == 401)
    }

    @Test func bodiesAreTheCommandsArguments() throws {
        // The body as it is: who sent it the daemon knows from the connection, so nothing is added.
        #expect(try WebRequestPolicy.arguments(fromBody: []).get() == [:])
        #expect(try WebRequestPolicy.arguments(fromBody: Array(" \r\n".utf8)).get() == [:])
        let arguments = try WebRequestPolicy.arguments(fromBody: Array(#"{"band":"bass","lower":30,"upper":200}"#.utf8)).get()
        #expect(arguments == ["band": "bass", "lower": 30, "upper": 200])
        for (body, message) in [
            ("[1]", #"body: expected a JSON object of the command's arguments, such as {"band":"bass","lower":30,"upper":200}"#),
            ("{\"band\":", "body: invalid JSON: line ends where a value was expected"),
            ("{\"a\":1,\"a\":2}", #"body: invalid JSON at byte 8: expected no duplicate key ("a" appears twice)"#),
            (#"{"cmd":"stop"}"#, #"body: "cmd" and "id" do not belong here; the command is the path's last part"#),
            (String(repeating: "[", count: 100), "body: invalid JSON at byte 65: expected at most 64 levels of nesting"),
        ] {
            guard case .failure(let rejection) = WebRequestPolicy.arguments(fromBody: Array(body.utf8)) else {
                Issue.record("\(body) accepted")
                continue
            }
            #expect(rejection.status == 400)
            #expect(rejection.message == message, "\(body)")
        }
    }

    @Test func repliesMapToStatuses() {
        #expect(WebRequestPolicy.status(for: .play, .success(["sent": "play"])) == 200)
        #expect(WebRequestPolicy.status(for: .play, .failure("no input is open")) == 409)
        #expect(WebRequestPolicy.status(for: .reload, .failure("bands.bass.lower: …")) == 409)
        #expect(WebRequestPolicy.status(for: .setBand, .failure("band must be one of bass, mid, treble, found nothing")) == 400)
        #expect(WebRequestPolicy.status(for: .setColor, .failure("the daemon is stopping")) == 503)
        #expect(WebRequestPolicy.status(for: .status, .failure("the daemon did not answer (/run/lightshow/control.sock): read: connection closed")) == 503)
    }

    @Test func rejectionsAreJSON() {
        #expect(WebRejection(401, "wrong token").body == Array(#"{"ok":false,"error":"wrong token"}"#.utf8) + [10])
    }
}
