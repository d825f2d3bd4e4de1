#if canImport(Glibc)
import Glibc
#endif
public import LightShowControl
public import LightShowCore
import LightShowSystem

/// The control handler of the web server's process: commands go to the daemon over a fixed few long-lived
/// control connections, each with a thread of its own (the client blocks), and the daemon's reply comes back as it
/// was, so a REST reply is the control socket's reply. However many web clients there are, the web takes no more
/// than `connectionCount` of the daemon's control connections (which it serves apart from local clients'), and
/// requests past `queueCapacity` waiting for one are answered 503 at once.
public final class DaemonCommandForwarder: ControlCommandHandler, Sendable {
    public static let connectionCount = 3
    public static let queueCapacity = 64

    public let path: String
    /// Longest wait for the daemon; a reload reads files, and a set-input may look for devices.
    public let timeoutSeconds: Double
    private let jobs = BoundedQueue<Job>(capacity: DaemonCommandForwarder.queueCapacity)

    /// One command and who waits for its reply.
    private struct Job: Sendable {
        var command: ControlCommand
        var arguments: JSONObject
        var reply: @Sendable (ControlReply) -> Void
    }

    /// Starts the connections' threads; each connects when its first command comes.
    public init(path: String, timeoutSeconds: Double = 15) throws(LightShowError) {
        self.path = path
        self.timeoutSeconds = timeoutSeconds
        for index in 0..<Self.connectionCount {
            try DedicatedThread.start(name: "ls-forward-\(index)") { [jobs, path, timeoutSeconds] in
                var connection = DaemonConnection(path: path, timeoutSeconds: timeoutSeconds)
                while let job = jobs.pop() {
                    job.reply(connection.send(job.command, arguments: job.arguments))
                }
            }
        }
    }

    deinit { jobs.close() }

    /// No more commands; those still waiting are answered by the daemon first, then the threads end.
    public func close() {
        jobs.finish()
    }

    public func handle(_ command: ControlCommand, arguments: JSONObject) async -> ControlReply {
        await withCheckedContinuation { (continuation: CheckedContinuation<ControlReply, Never>) in
            let job = Job(command: command, arguments: arguments) { continuation.resume(returning: $0) }
            switch jobs.tryPush(job) {
            case .pushed:
                break
            case .full:
                continuation.resume(returning: .failure(
                    "\(WebRequestPolicy.unreachableDaemon) (\(path)): \(Self.queueCapacity) web requests already wait for it"
                ))
            case .closed:
                continuation.resume(returning: .failure("the daemon is stopping"))
            }
        }
    }

    /// The daemon's Prometheus text with the web server's own counts; nil when the daemon can't be reached.
    public func metrics(_ counts: WebServerCounts) async -> String? {
        guard case .success(let result) = await handle(.metrics, arguments: ["web": counts.json]) else { return nil }
        return result["text"]?.stringValue
    }
}

/// One long-lived control connection of the forwarder, owned by its thread.
private struct DaemonConnection {
    let path: String
    let timeoutSeconds: Double
    private var client: ControlClient?

    init(path: String, timeoutSeconds: Double) {
        self.path = path
        self.timeoutSeconds = timeoutSeconds
    }

    /// Sends one command and returns the daemon's reply. A connection the daemon closed while it sat idle (its
    /// idle timeout) is found closed on the next use, before the daemon read anything from it: the command then
    /// goes once more on a new connection. A new connection that fails is the answer.
    mutating func send(_ command: ControlCommand, arguments: JSONObject) -> ControlReply {
        for _ in 0..<2 {
            let fresh = client == nil
            do throws(SystemCallError) {
                let current: ControlClient
                if let client {
                    current = client
                } else {
                    current = try ControlClient(path: path, timeoutSeconds: timeoutSeconds)
                }
                client = current
                let reply = try current.request(command.rawValue, arguments: arguments)
                if reply["ok"] == true { return .success(reply["result"] ?? .null) }
                return .failure(reply["error"]?.stringValue ?? "the daemon answered \(reply)")
            } catch {
                client = nil
                let closedWhileIdle = !fresh && [EPIPE, ECONNRESET].contains(error.code)
                if !closedWhileIdle { return .failure("\(WebRequestPolicy.unreachableDaemon) (\(path)): \(error)") }
            }
        }
        return .failure("\(WebRequestPolicy.unreachableDaemon) (\(path)): the connection closed twice")
    }
}
