import Foundation
import LightShowControl

#if canImport(Glibc)
import Glibc
#endif

/// A real Prometheus (Debian `prometheus`) on a free loopback port with a private config and storage, scraping
/// `target` (`host:port`) every second as job `lightshow`. Stopped when released.
public final class PrometheusServer: @unchecked Sendable {
    public let port: UInt16
    public let directory: TemporaryDirectory
    private var process: Process?

    public init(target: String, bearerToken: String? = nil) throws {
        directory = try TemporaryDirectory("ls-prometheus")
        port = try MPDServer.freePort()
        var config = """
            global:
              scrape_interval: 1s
              scrape_timeout: 1s
              evaluation_interval: 1s
            scrape_configs:
              - job_name: lightshow
                static_configs:
                  - targets: ['\(target)']

            """
        if let bearerToken { config += "    authorization:\n      credentials: '\(bearerToken)'\n" }
        _ = try directory.write("prometheus.yml", Data(config.utf8))
        let log = directory.file("prometheus.log")
        guard FileManager.default.createFile(atPath: log, contents: nil) else {
            throw ExternalTool.Failure(description: "cannot create \(log)")
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process = try Launch.start(
            [
                "/usr/bin/prometheus", "--config.file=\(directory.file("prometheus.yml"))",
                "--storage.tsdb.path=\(directory.file("data"))", "--web.listen-address=127.0.0.1:\(port)",
            ],
            standardOutput: output, standardError: output
        )
        let ready = "http://127.0.0.1:\(port)/-/ready"
        guard Wait.until(timeout: 60, { CurlRequest.get(ready)?.status == 200 }) else {
            stop()
            throw ExternalTool.Failure(description: "prometheus did not get ready on \(port): \(self.log)")
        }
    }

    deinit { stop() }

    public var log: String { (try? String(contentsOfFile: directory.file("prometheus.log"), encoding: .utf8)) ?? "" }

    /// Kills Prometheus and waits for it (SIGKILL: children of the test runner may inherit SIGTERM ignored).
    public func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// Each series an instant query returns: its labels and value; nil when the query failed.
    public func query(_ expression: String) -> [(labels: JSONValue, value: Double)]? {
        let encoded = expression.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? expression
        guard let response = CurlRequest.get("http://127.0.0.1:\(port)/api/v1/query?query=\(encoded)"), response.status == 200,
              let reply = try? JSONParser.parse(Array(response.body.utf8)), reply["status"] == "success",
              case .array(let results)? = reply["data"]?["result"] else { return nil }
        var values: [(labels: JSONValue, value: Double)] = []
        for result in results {
            guard case .array(let pair)? = result["value"], pair.count == 2, let text = pair[1].stringValue,
                  let value = Double(text) else { continue }
            values.append((result["metric"] ?? .null, value))
        }
        return values
    }

    /// The single value `expression` has now, nil when it has none (or several).
    public func value(_ expression: String) -> Double? {
        guard let values = query(expression), values.count == 1 else { return nil }
        return values.first?.value
    }
}
