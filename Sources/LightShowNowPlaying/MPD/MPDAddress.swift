public import LightShowCore

/// Where MPD listens: `HOST[:PORT]` (port 6600 by default, `[v6]:PORT` for IPv6) or a Unix socket path
/// (`@name` for the abstract namespace).
public enum MPDAddress: Sendable, Equatable, CustomStringConvertible {
    case tcp(host: String, port: UInt16)
    case unix(path: String)

    public static let defaultPort: UInt16 = 6600

    /// Parses an address as written after `--mpd` or in `[mpd] address`.
    public init(parsing text: String) throws(LightShowError) {
        func invalid() -> LightShowError {
            LightShowError(
                "MPD address '\(text)' is not valid: expected HOST[:PORT] (port 1-65535) or a socket path",
                exitStatus: .usage
            )
        }
        guard !text.isEmpty, !text.contains(where: \.isWhitespace) else { throw invalid() }
        if text.hasPrefix("/") || text.hasPrefix("@") {
            guard text.count > 1 else { throw invalid() }
            self = .unix(path: text)
            return
        }
        var host = Substring(text)
        var portText: Substring?
        if host.hasPrefix("[") {
            // [v6] or [v6]:port
            guard let close = host.firstIndex(of: "]") else { throw invalid() }
            let after = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid() }
                portText = after.dropFirst()
            }
        } else if let colon = host.firstIndex(of: ":") {
            // A bare IPv6 address has several colons and no port.
            if host[host.index(after: colon)...].contains(":") == false {
                portText = host[host.index(after: colon)...]
                host = host[..<colon]
            }
        }
        guard !host.isEmpty else { throw invalid() }
        var port = Self.defaultPort
        if let portText {
            guard let value = UInt16(portText), value > 0 else { throw invalid() }
            port = value
        }
        self = .tcp(host: String(host), port: port)
    }

    public var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): path
        }
    }
}
