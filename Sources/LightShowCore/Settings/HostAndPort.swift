/// `"HOST"`, `"HOST:PORT"` or `"[v6-address]:PORT"` split into its host and port, as `[mqtt] broker` and
/// `[web] listen` write them.
public enum HostAndPort {
    /// The host and port in `text`, `defaultPort` when none is given; nil when it has no such form or the port is
    /// outside `ports`.
    public static func parse(_ text: String, defaultPort: Int, ports: ClosedRange<Int> = 1...65535) -> (host: String, port: Int)? {
        var host = Substring(text)
        var port = defaultPort
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let number = Int(rest.dropFirst()) else { return nil }
                port = number
            }
        } else if let colon = host.firstIndex(of: ":"), host[host.index(after: colon)...].firstIndex(of: ":") == nil {
            guard let number = Int(host[host.index(after: colon)...]) else { return nil }
            port = number
            host = host[..<colon]
        }
        guard !host.isEmpty, ports.contains(port) else { return nil }
        return (String(host), port)
    }

    /// Whether `host` names this machine's loopback interface only: `localhost`, `127.0.0.0/8` or `::1`.
    public static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "::1" || lowered == "0:0:0:0:0:0:0:1" { return true }
        let parts = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { part in
            (1...3).contains(part.count) && part.allSatisfy(\.isASCII) && UInt8(part) != nil
        }
    }
}
