import Foundation

/// An HTTP request made with curl (Debian `curl`), for tests of the daemon's web server and of the Prometheus that
/// scrapes it: the test's client, apart from the server it checks.
public enum CurlRequest {
    public struct Response: Sendable {
        public var status: Int
        public var contentType: String
        public var body: String
    }

    /// `GET url` with `headers`, at most `timeout` seconds; nil when nothing answered (refused, timed out).
    public static func get(_ url: String, headers: [String] = [], timeout: Double = 5) -> Response? {
        // The status and content type follow the body on lines of their own.
        let arguments = ["/usr/bin/curl", "-sS", "--max-time", "\(timeout)", "-w", "\n%{http_code}\n%{content_type}"]
            + headers.flatMap { ["-H", $0] } + [url]
        guard let result = try? Launch.run(arguments), result.status == 0 else { return nil }
        var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 3, let status = Int(lines[lines.count - 2]) else { return nil }
        let contentType = lines.removeLast()
        lines.removeLast()
        return Response(status: status, contentType: contentType, body: lines.joined(separator: "\n"))
    }
}
