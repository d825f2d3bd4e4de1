public import LightShowCore
import LightShowSystem

#if canImport(Glibc)
import Glibc
#endif

/// Commands for the daemon sent in the background, in order, over a fixed few long-lived connections with a
/// thread each (the client blocks), so whoever asks never waits for the socket: the web server's forwarder, and a
/// viewer's keys. At most `capacity` wait for a connection; past that, `overflow` says what gives.
public final class ControlRequestQueue: Sendable {
    /// What happens to a command that finds the queue full.
    public enum Overflow: Sendable {
        /// It is refused (the web answers 503).
        case refuseNewest
        /// The oldest waiting one is dropped for it (a knob held down: its newest settings matter).
        case dropOldest
    }

    /// How a command ended: the daemon's reply, or why no reply came (the socket gone, the daemon too busy).
    public enum Outcome: Sendable, Equatable {
        case answered(ControlReply)
        case unreachable(String)
    }

    /// Whether `submit` queued the command.
    public enum Submitted: Sendable { case queued, full, closed }

    /// One command and who waits for its outcome.
    private struct Job: Sendable {
        var command: ControlCommand
        var arguments: JSONObject
        var done: @Sendable (Outcome) -> Void
    }

    public let path: String
    private let overflow: Overflow
    private let jobs: BoundedQueue<Job>

    /// Starts `connections` threads named `name-N`; each connects when its first command comes, and waits
    /// `timeoutSeconds` at most for a reply.
    public init(
        path: String, connections: Int, capacity: Int, overflow: Overflow, timeoutSeconds: Double, name: String
    ) throws(LightShowError) {
        self.path = path
        self.overflow = overflow
        let jobs = BoundedQueue<Job>(capacity: capacity)
        self.jobs = jobs
        for index in 0..<max(1, connections) {
            try DedicatedThread.start(name: "\(name)-\(index)") {
                var connection = KeptConnection(path: path, timeoutSeconds: timeoutSeconds)
                while let job = jobs.pop() {
                    job.done(connection.send(job.command, arguments: job.arguments))
                }
            }
        }
    }

    deinit { jobs.close() }

    /// Queues `command`; if queued, `done` hears its outcome on a connection's thread (a command dropped for a
    /// newer one hears so as unreachable). Never waits.
    @discardableResult
    public func submit(
        _ command: ControlCommand, arguments: JSONObject = [:], done: @escaping @Sendable (Outcome) -> Void = { _ in }
    ) -> Submitted {
        let job = Job(command: command, arguments: arguments, done: done)
        switch jobs.tryPush(job) {
        case .pushed:
            return .queued
        case .closed:
            return .closed
        case .full where overflow == .refuseNewest:
            return .full
        case .full:
            // A connection's thread may take one meanwhile: then the push finds room without dropping anything.
            if case .some(.some(let oldest)) = jobs.pop(until: MonotonicClock.now()) {
                oldest.done(.unreachable("dropped for a newer command"))
            }
            switch jobs.tryPush(job) {
            case .pushed: return .queued
            case .closed: return .closed
            case .full: return .full  // other submitters filled the room first
            }
        }
    }

    /// No more commands; those waiting still go to the daemon, then the threads end.
    public func finish() {
        jobs.finish()
    }
}

/// One long-lived control connection of the queue, owned by its thread.
private struct KeptConnection {
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
    mutating func send(_ command: ControlCommand, arguments: JSONObject) -> ControlRequestQueue.Outcome {
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
                return .answered(ControlReply(reply: try current.request(command.rawValue, arguments: arguments)))
            } catch {
                client = nil
                let closedWhileIdle = !fresh && [EPIPE, ECONNRESET].contains(error.code)
                if !closedWhileIdle { return .unreachable("\(error)") }
            }
        }
        return .unreachable("the connection closed twice")
    }
}
