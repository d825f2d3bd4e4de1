public import LightShowControl
public import LightShowCore

/// The control handler of the web server's process: commands go to the daemon over a fixed few long-lived
/// control connections (`ControlRequestQueue`), and the daemon's reply comes back as it was, so a REST reply is
/// the control socket's reply. However many web clients there are, the web takes no more than `connectionCount` of
/// the daemon's control connections (which it serves apart from local clients'), and requests past
/// `queueCapacity` waiting for one are answered 503 at once.
public final class DaemonCommandForwarder: ControlCommandHandler, Sendable {
    public static let connectionCount = 3
    public static let queueCapacity = 64

    public var path: String { queue.path }
    private let queue: ControlRequestQueue

    /// Starts the connections' threads; each connects when its first command comes. `timeoutSeconds` is the
    /// longest wait for the daemon: a reload reads files, and a set-input may look for devices.
    public init(path: String, timeoutSeconds: Double = 15) throws(LightShowError) {
        queue = try ControlRequestQueue(
            path: path, connections: Self.connectionCount, capacity: Self.queueCapacity, overflow: .refuseNewest,
            timeoutSeconds: timeoutSeconds, name: "ls-forward"
        )
    }

    /// No more commands; those still waiting are answered by the daemon first, then the threads end.
    public func close() {
        queue.finish()
    }

    public func handle(_ command: ControlCommand, arguments: JSONObject) async -> ControlReply {
        await withCheckedContinuation { (continuation: CheckedContinuation<ControlReply, Never>) in
            let submitted = queue.submit(command, arguments: arguments) { [path] outcome in
                switch outcome {
                case .answered(let reply): continuation.resume(returning: reply)
                case .unreachable(let why): continuation.resume(returning: .failure("\(WebRequestPolicy.unreachableDaemon) (\(path)): \(why)"))
                }
            }
            switch submitted {
            case .queued:
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
