import Foundation

/// The real daemon on the demo input with `[web]` on a free loopback port (its config gives `extra` under `[web]`),
/// and the port it bound, read from its log.
public final class WebDaemon: @unchecked Sendable {
    public let daemon: DaemonProcess
    public private(set) var port = 0
    public let configPath: String

    public init(_ label: String, web extra: String = "", arguments: [String] = []) throws {
        let directory = try TemporaryDirectory(label)
        configPath = try directory.write("lightshow.toml", Data(Self.config(extra).utf8))
        daemon = try DaemonProcess(["--input", "demo", "--config", configPath] + arguments, directory: directory)
    }

    public static func config(_ extra: String, listen: String = "127.0.0.1:0") -> String {
        "[web]\nlisten = \"\(listen)\"\n\(extra)\n"
    }

    /// True once the web server listens and the show plays; `port` is then set.
    public func started() async -> Bool {
        guard await OffPool.until(timeout: 30, { self.readPort() != nil }) else { return false }
        port = readPort() ?? 0
        return await OffPool.until(timeout: 30) {
            (try? HTTPTestClient(port: self.port).request("GET", "/api/status", port: self.port, headers: self.auth))?
                .text.contains(#""state":"playing""#) ?? false
        }
    }

    /// The headers that authorise a request (set `token` when the config has one).
    public var token: String?
    public var auth: [String: String] { token.map { ["Authorization": "Bearer \($0)"] } ?? [:] }

    /// The newest port in the log's "web: http://127.0.0.1:PORT/" lines.
    public func readPort() -> Int? {
        let lines = daemon.log.split(separator: "\n").filter { $0.contains("web: http://127.0.0.1:") }
        guard let last = lines.last, let range = last.range(of: "127.0.0.1:") else { return nil }
        return Int(last[range.upperBound...].prefix { $0.isNumber })
    }

    /// A new connection to the web server.
    public func client(timeoutSeconds: Double = 10) throws -> HTTPTestClient {
        try HTTPTestClient(port: port, timeoutSeconds: timeoutSeconds)
    }

    /// One request on a connection of its own.
    public func request(_ method: String, _ target: String, headers: [String: String] = [:], body: String = "") throws -> HTTPTestClient.Response {
        try client().request(method, target, port: port, headers: auth.merging(headers) { $1 }, body: Array(body.utf8))
    }
}
