import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A stand-in Philips Hue bridge for the tests: Tests/Peers/hue_bridge.py, Python's http.server behind TLS with a
/// self-signed certificate (made with `openssl req`), serving the v2 endpoints a streaming client uses. Pairing hands out a fixed
/// application key, client key and application id, after `linkButtonAfter` refused tries ("link button not
/// pressed"). Every request is logged, one JSON line each, to `events`. Writing an application id into
/// `directory/owner` makes the area look taken by that application. Stopped when released.
public final class HueBridge: @unchecked Sendable {
    public static let applicationKey = "lightshow-test-key-0123456789"
    public static let clientKey = "0123456789abcdef0123456789abcdef"
    public static let applicationID = "7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910"
    public static let areaID = "4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d"
    public static let areaName = "Living room"

    public let directory: TemporaryDirectory
    public private(set) var port: UInt16 = 0
    private var process: Process?
    private let linkButtonAfter: Int

    /// A bridge with a new certificate, on a free port (or `port`).
    public init(linkButtonAfter: Int = 0, port: UInt16? = nil) throws {
        directory = try TemporaryDirectory("ls-hue-bridge")
        self.linkButtonAfter = linkButtonAfter
        try makeCertificate()
        try start(port: port ?? 0)
    }

    deinit { stop() }

    /// A new key pair and self-signed certificate named after a bridge id: what a replaced bridge presents.
    public func makeCertificate() throws {
        for name in ["cert.pem", "key.pem"] { try? FileManager.default.removeItem(atPath: directory.file(name)) }
        let made = try Launch.run([
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
            "-subj", "/CN=001788fffe123456", "-keyout", directory.file("key.pem"), "-out", directory.file("cert.pem"),
        ])
        guard made.status == 0 else { throw ExternalTool.Failure(description: "openssl req: \(made.stderr)") }
    }

    /// The certificate's SHA-256 as `openssl x509 -fingerprint` prints it, lowercase without colons.
    public func certificateSHA256() throws -> String {
        let out = try Launch.run(["openssl", "x509", "-in", directory.file("cert.pem"), "-noout", "-fingerprint", "-sha256"])
        guard let value = out.stdout.split(separator: "=").last else { throw ExternalTool.Failure(description: out.stderr) }
        return value.replacingOccurrences(of: ":", with: "").trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// Starts the server (again) and waits until it accepts connections.
    public func start(port: UInt16 = 0) throws {
        try? FileManager.default.removeItem(atPath: directory.file("port"))
        let process = try Launch.start(
            ["/usr/bin/python3", PackagePaths.file("Tests/Peers/hue_bridge.py"), directory.path, String(port), String(linkButtonAfter)],
            standardError: FileHandle(forWritingAtPath: directory.write("bridge.log", Data()))
        )
        self.process = process
        guard Wait.until(timeout: 15, { (try? String(contentsOfFile: directory.file("port"), encoding: .utf8)).flatMap { UInt16($0) } != nil }),
              let text = try? String(contentsOfFile: directory.file("port"), encoding: .utf8), let bound = UInt16(text) else {
            throw ExternalTool.Failure(description: "the stand-in bridge did not start: \(log)")
        }
        self.port = bound
    }

    public func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    public var address: String { "127.0.0.1:\(port)" }
    public var log: String { (try? String(contentsOfFile: directory.file("bridge.log"), encoding: .utf8)) ?? "" }

    /// Every request so far: method, path, body and whether it carried the right application key.
    public struct Event: Sendable {
        public var method: String
        public var path: String
        public var body: String
        public var authorised: Bool
    }

    public var events: [Event] {
        let text = (try? String(contentsOfFile: directory.file("events"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return Event(
                method: object["method"] as? String ?? "", path: object["path"] as? String ?? "",
                body: object["body"] as? String ?? "", authorised: object["authorised"] as? Bool ?? false
            )
        }
    }

    /// The area's start and stop requests, in order: `["start", "stop", …]`.
    public var areaActions: [String] {
        events.filter { $0.method == "PUT" && $0.path.hasSuffix(Self.areaID) && $0.authorised }.compactMap { event in
            event.body.contains("\"start\"") ? "start" : event.body.contains("\"stop\"") ? "stop" : nil
        }
    }

    /// Makes the area look taken by `application` (nil: free again).
    public func setOwner(_ application: String?) throws {
        if let application {
            _ = try directory.write("owner", Data(application.utf8))
        } else {
            try? FileManager.default.removeItem(atPath: directory.file("owner"))
        }
    }
}
