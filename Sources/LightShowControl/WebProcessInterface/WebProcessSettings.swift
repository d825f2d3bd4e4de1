/// What `lightshow daemon` tells the `lightshow-web` process it starts, as one JSON line on the child's standard
/// input: where to listen, the limits, the token (never on the command line, which every user can read in `ps`),
/// and the control socket the server relays through.
public struct WebProcessSettings: Equatable, Sendable {
    /// The daemon's control socket: commands, `metrics` and the frames go through it.
    public var socketPath: String
    public var host: String
    /// 0 picks a free port.
    public var port: Int
    /// Names `Host` may carry besides loopback's and the listen address.
    public var extraHosts: [String]
    /// The token the API, the WebSocket and `/metrics` require; nil for none.
    public var token: String?
    public var limits: WebLimits

    public init(socketPath: String, host: String, port: Int, extraHosts: [String] = [], token: String? = nil, limits: WebLimits = WebLimits()) {
        self.socketPath = socketPath
        self.host = host
        self.port = port
        self.extraHosts = extraHosts
        self.token = token
        self.limits = limits
    }

    /// The line the daemon writes (newline-terminated).
    public var line: [UInt8] {
        let object: JSONValue = [
            "socket": .string(socketPath), "host": .string(host), "port": .number(Double(port)),
            "hosts": .array(extraHosts.map { .string($0) }), "token": token.map { .string($0) } ?? .null,
            "max_connections": .number(Double(limits.maxConnections)),
            "idle_timeout": .number(limits.idleTimeoutSeconds), "request_timeout": .number(limits.requestTimeoutSeconds),
            "max_body_bytes": .number(Double(limits.maxBodyBytes)), "max_header_bytes": .number(Double(limits.maxHeaderBytes)),
        ]
        return object.line
    }

    /// Reads the line back; the error names the member that is missing or out of range.
    public static func parse(_ line: [UInt8]) -> Result<WebProcessSettings, WebProcessSettingsError> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return .failure(WebProcessSettingsError("not JSON: \(error.description)"))
        }
        guard let socket = value["socket"]?.stringValue, !socket.isEmpty else { return .failure(.missing("socket", "a path")) }
        guard let host = value["host"]?.stringValue, !host.isEmpty else { return .failure(.missing("host", "a host name or address")) }
        guard let port = integer(value["port"], in: 0...65535) else { return .failure(.missing("port", "a port, 0 to 65535")) }
        guard case .array(let hostValues) = value["hosts"] ?? .array([]) else { return .failure(.missing("hosts", "an array of names")) }
        let hosts = hostValues.compactMap(\.stringValue)
        guard hosts.count == hostValues.count else { return .failure(.missing("hosts", "an array of names")) }
        let token: String?
        switch value["token"] {
        case nil, .null?: token = nil
        case .string(let text)?: token = text
        default: return .failure(.missing("token", "a string or null"))
        }
        var limits = WebLimits()
        guard let connections = integer(value["max_connections"], in: 1...1_000_000) else { return .failure(.missing("max_connections", "1 to 1000000")) }
        guard let idle = seconds(value["idle_timeout"]) else { return .failure(.missing("idle_timeout", "seconds, more than 0")) }
        guard let request = seconds(value["request_timeout"]) else { return .failure(.missing("request_timeout", "seconds, more than 0")) }
        guard let body = integer(value["max_body_bytes"], in: 1...(1 << 30)) else { return .failure(.missing("max_body_bytes", "1 to 2^30")) }
        guard let header = integer(value["max_header_bytes"], in: 1...(1 << 30)) else { return .failure(.missing("max_header_bytes", "1 to 2^30")) }
        limits.maxConnections = connections
        limits.idleTimeoutSeconds = idle
        limits.requestTimeoutSeconds = request
        limits.maxBodyBytes = body
        limits.maxHeaderBytes = header
        return .success(WebProcessSettings(socketPath: socket, host: host, port: port, extraHosts: hosts, token: token, limits: limits))
    }

    private static func integer(_ value: JSONValue?, in range: ClosedRange<Int>) -> Int? {
        guard let number = value?.numberValue, number.rounded() == number,
              number >= Double(range.lowerBound), number <= Double(range.upperBound) else { return nil }
        return Int(number)
    }

    private static func seconds(_ value: JSONValue?) -> Double? {
        guard let number = value?.numberValue, number.isFinite, number > 0, number <= 86_400 else { return nil }
        return number
    }
}

/// Why the settings line can't be used.
public struct WebProcessSettingsError: Error, Equatable, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }

    static func missing(_ member: String, _ expected: String) -> WebProcessSettingsError {
        WebProcessSettingsError("\"\(member)\": expected \(expected)")
    }
}
