import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real mosquitto broker on a free loopback port with a private config (anonymous, no persistence), and the
/// mosquitto_sub / mosquitto_pub clients to talk to it. Stopped when released.
public final class MosquittoBroker: @unchecked Sendable {
    public let port: UInt16
    public let directory: TemporaryDirectory
    private var process: Process?

    public init() throws {
        directory = try TemporaryDirectory("ls-mosquitto")
        port = try MPDServer.freePort()
        // Run as root, mosquitto would switch to its own user, which can't write the private log.
        let user = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? "root"
        let config = """
            user \(user)
            listener \(port) 127.0.0.1
            allow_anonymous true
            persistence false
            log_dest file \(directory.file("mosquitto.log"))
            log_type all

            """
        _ = try directory.write("mosquitto.conf", Data(config.utf8))
        try start()
    }

    deinit { stop() }

    public var log: String { (try? String(contentsOfFile: directory.file("mosquitto.log"), encoding: .utf8)) ?? "" }

    /// Starts the broker and waits until it accepts connections.
    public func start() throws {
        let process = try Launch.start(["/usr/sbin/mosquitto", "-c", directory.file("mosquitto.conf")])
        self.process = process
        guard Wait.until(timeout: 10, { SocketProbe.canConnect(port: port) }) else {
            throw ExternalTool.Failure(description: "mosquitto did not listen on \(port): \(log)")
        }
    }

    /// Kills the broker and waits for it: SIGKILL, since children of the test runner may inherit SIGTERM ignored.
    public func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// `topic payload` lines received on `filter` within `seconds` (retained ones first), at most `count` of them.
    public func messages(_ filter: String, seconds: Double, count: Int? = nil) async throws -> [(topic: String, payload: String)] {
        var arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-v", "-t", filter]
        if let count { arguments += ["-C", "\(count)"] }
        let output = try await Self.run("/usr/bin/mosquitto_sub", arguments, deadline: seconds)
        return output.split(separator: "\n").map { line in
            let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    /// The first retained or live payload on `topic` within `seconds`, nil if none came.
    public func message(_ topic: String, seconds: Double = 5) async throws -> String? {
        try await messages(topic, seconds: seconds, count: 1).first?.payload
    }

    public func publish(_ topic: String, _ payload: String, retain: Bool = false) async throws {
        try await Self.run("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-m", payload] + (retain ? ["-r"] : []))
    }

    /// Each line of `file` as one message on `topic` (`mosquitto_pub -l`).
    public func publishLines(_ topic: String, from file: String) async throws {
        try await Self.run("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-l"], input: file)
    }

    /// The whole of `file` as one message on `topic`.
    public func publishFile(_ topic: String, _ file: String) async throws {
        try await Self.run("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-f", file])
    }

    /// Runs a client to completion off the cooperative pool, or until `deadline` seconds, when it is killed and what
    /// it printed so far is the result (mosquitto_sub's own -W relies on SIGALRM, which children of the test runner
    /// may inherit ignored).
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], input: String? = nil, deadline: Double? = nil) async throws -> String {
        try await OffPool.run {
            let out = Pipe()
            let process = try Launch.start(
                [tool] + arguments, standardInput: input.flatMap { FileHandle(forReadingAtPath: $0) }, standardOutput: out
            )
            let pid = process.processIdentifier
            if let deadline {
                Thread.detachNewThread {
                    Thread.sleep(forTimeInterval: deadline)
                    if process.isRunning { kill(pid, SIGKILL) }
                }
            }
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let killed = process.terminationReason == .uncaughtSignal
            guard process.terminationStatus == 0 || (deadline != nil && killed) else {
                throw ExternalTool.Failure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
            }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
