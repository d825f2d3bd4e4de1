/// `[web]`: the page, HTTP API, frames WebSocket and `/metrics`. Off unless `listen` is set.
public struct WebSettings: Equatable, Sendable {
    /// "" = off; "HOST:PORT" ("[v6-address]:PORT"), usually "127.0.0.1:8490".
    public var listen: String = ""
    /// The bearer token the API, the WebSocket and `/metrics` require; "" = none (loopback only).
    public var token: String = ""
    /// A file holding the token (its first line), read when the server starts; instead of `token`.
    public var tokenFile: String = ""
    /// Host names (and addresses) besides the listen address and loopback that requests may name in `Host`:
    /// the names a LAN reaches the machine by.
    public var hosts: [String] = []
    /// Most connections open at once (page, API and WebSocket viewers together); more are answered 503.
    public var maxConnections: Int = 64
    /// A keep-alive connection with no request for this long is closed.
    public var idleTimeoutSeconds: Double = 30
    /// A request whose line, headers and body have not all arrived this long after it began is answered 408 and
    /// closed (a slow client holds no slot for long).
    public var requestTimeoutSeconds: Double = 10
    /// Largest request body accepted (the API's JSON arguments); more is answered 413.
    public var maxBodyBytes: Int = 16_384

    public static let defaultPort = 8490
    public static let usualListen = "127.0.0.1:8490"
    /// Shortest token accepted: a guessable token on a LAN is no lock.
    public static let minimumTokenBytes = 16

    public init() {}

    public var isEnabled: Bool { !listen.isEmpty }

    /// `listen` split into host and port (port 0 picks a free one); nil when off or malformed.
    public var address: (host: String, port: Int)? {
        isEnabled ? Self.address(listen) : nil
    }

    public static func address(_ listen: String) -> (host: String, port: Int)? {
        HostAndPort.parse(listen, defaultPort: defaultPort, ports: 0...65535)
    }

    /// Whether the server answers on loopback only, where no token is required.
    public var isLoopbackOnly: Bool {
        address.map { HostAndPort.isLoopback($0.host) } ?? true
    }

    /// Whether a token is configured (the file's content is read at start).
    public var hasToken: Bool { !token.isEmpty || !tokenFile.isEmpty }
}
