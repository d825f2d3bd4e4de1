public import LightShowControl
import LightShowCore

/// Every decision about a request that needs no I/O: the route for its method and target, and whether its `Host`,
/// `Origin` and token let it through. Pure, so it is tested and fuzzed on its own; the server asks it first.
public struct WebRequestPolicy: Sendable {
    /// The names `Host` may carry: loopback's, the listen address's (unless it is a wildcard), and `[web] hosts`.
    public let hostNames: Set<String>
    /// The port `Host` must carry.
    public let port: Int
    /// The token the API, the WebSocket and `/metrics` require; nil when none is configured.
    public let token: [UInt8]?

    public static let defaultFPS: Double = 30
    public static let maximumFPS: Double = 60
    /// Longest request target (path and query) considered; longer is refused with 414.
    public static let maximumTargetBytes = 2048

    public init(listenHost: String, port: Int, extraHosts: [String] = [], token: String?) {
        var names: Set<String> = ["localhost", "127.0.0.1", "[::1]"]
        let listen = listenHost.lowercased()
        if !["0.0.0.0", "::", "[::]", ""].contains(listen) {
            names.insert(listen.contains(":") && !listen.hasPrefix("[") ? "[\(listen)]" : listen)
        }
        for host in extraHosts {
            let lowered = host.lowercased()
            names.insert(lowered.contains(":") && !lowered.hasPrefix("[") ? "[\(lowered)]" : lowered)
        }
        hostNames = names
        self.port = port
        self.token = token.flatMap { $0.isEmpty ? nil : Array($0.utf8) }
    }

    /// The request's parts that matter, as received.
    public struct Request: Sendable {
        public var method: String
        /// The request target: path and query, as on the request line.
        public var target: String
        public var host: String?
        public var origin: String?
        public var authorization: String?
        /// It asks for a WebSocket (`Upgrade: websocket`).
        public var upgradesToWebSocket: Bool

        public init(
            method: String, target: String, host: String?, origin: String? = nil, authorization: String? = nil,
            upgradesToWebSocket: Bool = false
        ) {
            self.method = method
            self.target = target
            self.host = host
            self.origin = origin
            self.authorization = authorization
            self.upgradesToWebSocket = upgradesToWebSocket
        }
    }

    /// The route, or why not. Checked in this order: the target's size, `Host` (no DNS rebinding), the route and
    /// method, `Origin` for what changes state, the token, then the query.
    public func decide(_ request: Request) -> Result<WebRoute, WebRejection> {
        guard request.target.utf8.count <= Self.maximumTargetBytes else {
            return .failure(WebRejection(414, "request target longer than \(Self.maximumTargetBytes) bytes"))
        }
        if let problem = hostProblem(request.host) { return .failure(problem) }
        let (path, query) = Self.split(request.target)
        let route: WebRoute
        let needsToken: Bool
        var changesState = false
        switch path {
        case "/":
            guard ["GET", "HEAD"].contains(request.method) else { return .failure(Self.methodNotAllowed("GET, HEAD")) }
            route = .page
            needsToken = false
        case "/metrics":
            guard request.method == "GET" else { return .failure(Self.methodNotAllowed("GET")) }
            route = .metrics
            needsToken = true
        case "/api/status":
            guard request.method == "GET" else { return .failure(Self.methodNotAllowed("GET")) }
            route = .command(.status)
            needsToken = true
        case "/api/frames":
            guard request.method == "GET" else { return .failure(Self.methodNotAllowed("GET")) }
            guard request.upgradesToWebSocket else {
                return .failure(WebRejection(426, "/api/frames is a WebSocket: connect with Upgrade: websocket"))
            }
            route = .frames(framesPerSecond: Self.defaultFPS)
            needsToken = true
            changesState = true
        default:
            guard path.hasPrefix("/api/") else { return .failure(WebRejection(404, "no such page: \(Self.shown(path))")) }
            let name = String(path.dropFirst("/api/".count))
            guard let command = ControlCommand(rawValue: name), command != .subscribe, command != .status, command != .metrics else {
                return .failure(WebRejection(404, "no such command: \(Self.shown(name)); expected one of \(Self.commandNames)"))
            }
            guard request.method == "POST" else { return .failure(Self.methodNotAllowed("POST")) }
            route = .command(command)
            needsToken = true
            changesState = true
        }
        if changesState, let problem = originProblem(request.origin, host: request.host) { return .failure(problem) }
        if needsToken, let token {
            let given = Self.bearer(request.authorization)
                ?? (route.isFrames ? Self.parameter("token", in: query) : nil)
            guard let given else {
                return .failure(WebRejection(401, "a token is required: send Authorization: Bearer TOKEN"))
            }
            guard Self.constantTimeEqual(Array(given.utf8), token) else {
                return .failure(WebRejection(401, "wrong token"))
            }
        }
        if route.isFrames, let fps = Self.parameter("fps", in: query) {
            guard let number = Double(fps), number.isFinite, number >= 1, number <= Self.maximumFPS else {
                return .failure(WebRejection(400, "fps must be a number from 1 to \(Int(Self.maximumFPS)), found \(Self.shown(fps))"))
            }
            return .success(.frames(framesPerSecond: number))
        }
        return .success(route)
    }

    /// A command's arguments from a request body: a JSON object (empty body = `{}`), parsed as the control socket
    /// parses its lines; the command itself is in the path. That they come from the web the daemon knows from
    /// the connection they arrive on, not from anything in them.
    public static func arguments(fromBody body: [UInt8]) -> Result<JSONObject, WebRejection> {
        guard body.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return .success([:]) }
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            return .failure(WebRejection(400, "body: \(error.description)"))
        }
        guard case .object(let members) = value else {
            return .failure(WebRejection(400, #"body: expected a JSON object of the command's arguments, such as {"band":"bass","lower":30,"upper":200}"#))
        }
        if members["cmd"] != nil || members["id"] != nil {
            return .failure(WebRejection(400, #"body: "cmd" and "id" do not belong here; the command is the path's last part"#))
        }
        return .success(members)
    }

    /// How the web server's failure to reach the daemon begins (its control socket gone, or full: a busy daemon
    /// turns connections past its `max_clients` away).
    public static let unreachableDaemon = "the daemon did not answer"

    /// The HTTP status for a command's reply: 200 when it succeeded; otherwise 503 when the daemon is stopping or
    /// can't be reached, 409 when it can't do it now (no input, a config that doesn't load), 400 for bad arguments.
    public static func status(for command: ControlCommand, _ reply: ControlReply) -> Int {
        guard case .failure(let message) = reply else { return 200 }
        if message.hasPrefix("the daemon is stopping") || message.hasPrefix("cancelled") || message.hasPrefix(unreachableDaemon) {
            return 503
        }
        switch command {
        case .status, .subscribe, .metrics, .play, .pause, .toggle, .stop, .reload: return 409
        case .setBand, .setColor, .setBrightness, .setInput: return 400
        }
    }

    // MARK: - Checks

    private func hostProblem(_ host: String?) -> WebRejection? {
        guard let host, !host.isEmpty else { return WebRejection(400, "the Host header is missing") }
        guard let (name, port) = Self.nameAndPort(host.lowercased()), hostNames.contains(name), port == self.port else {
            return WebRejection(421, "this server does not answer for Host \(Self.shown(host)); add the name to [web] hosts to allow it")
        }
        return nil
    }

    /// An `Origin` must be absent (a client that is no browser) or the page's own: `http://` and the `Host`.
    private func originProblem(_ origin: String?, host: String?) -> WebRejection? {
        guard let origin else { return nil }
        guard let host, origin.lowercased() == "http://" + host.lowercased() else {
            return WebRejection(403, "cross-origin request from \(Self.shown(origin)) refused")
        }
        return nil
    }

    // MARK: - Parsing

    /// `name:port` or `[v6]:port` → the name as `hostNames` holds it and the port (80 when none is given).
    static func nameAndPort(_ host: String) -> (String, Int)? {
        var name = Substring(host)
        var port = 80
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return nil }
            let rest = name[name.index(after: close)...]
            name = name[...close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Self.port(rest.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = name.firstIndex(of: ":") {
            guard let number = Self.port(name[name.index(after: colon)...]) else { return nil }
            port = number
            name = name[..<colon]
        }
        guard !name.isEmpty else { return nil }
        return (String(name), port)
    }

    private static func port(_ text: Substring) -> Int? {
        guard (1...5).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text),
              number <= 65535 else { return nil }
        return number
    }

    static func split(_ target: String) -> (path: Substring, query: Substring) {
        guard let mark = target.firstIndex(of: "?") else { return (Substring(target), "") }
        return (target[..<mark], target[target.index(after: mark)...])
    }

    /// The first value of `name` in a query (`a=1&b=2`), percent-decoded; nil when absent or not decodable.
    static func parameter(_ name: String, in query: Substring) -> String? {
        for pair in query.split(separator: "&", maxSplits: 32, omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.first.flatMap(percentDecoded) == name else { continue }
            return parts.count > 1 ? percentDecoded(parts[1]) : ""
        }
        return nil
    }

    /// `%XX` and `+` decoded; nil for a broken escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The token in `Authorization: Bearer TOKEN`.
    static func bearer(_ authorization: String?) -> String? {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingSpaces
    }

    /// Compares every byte whatever differs, so the time taken tells nothing of how much of a guess was right.
    static func constantTimeEqual(_ given: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }

    private static func methodNotAllowed(_ allow: String) -> WebRejection {
        WebRejection(405, "method not allowed here; use \(allow)", allow: allow)
    }

    static let commandNames = ControlCommand.allCases.filter { $0 != .subscribe && $0 != .status && $0 != .metrics }.map(\.rawValue)
        .joined(separator: ", ")

    /// Text from the request, made safe and short for a message.
    static func shown(_ text: some StringProtocol) -> String {
        "\"\(SafeText.sanitized(String(text), limit: 60))\""
    }
}

extension WebRoute {
    var isFrames: Bool {
        if case .frames = self { true } else { false }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
