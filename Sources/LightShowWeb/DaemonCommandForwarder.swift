public import LightShowControl
import LightShowCore
import LightShowSystem

/// The control handler of the web server's process: each command goes to the daemon over a control-socket
/// connection of its own, on a thread of its own (the client blocks), and the daemon's reply comes back as it was,
/// so a REST reply is the control socket's reply.
public struct DaemonCommandForwarder: ControlCommandHandler {
    public let path: String
    /// Longest wait for the daemon; a reload reads files, and a set-input may open a device.
    public let timeoutSeconds: Double

    public init(path: String, timeoutSeconds: Double = 15) {
        self.path = path
        self.timeoutSeconds = timeoutSeconds
    }

    public func handle(_ command: ControlCommand, arguments: JSONObject) async -> ControlReply {
        let reply: JSONValue
        do throws(LightShowError) {
            reply = try await DedicatedThread.run(name: "ls-forward") { [path, timeoutSeconds] () throws(LightShowError) -> JSONValue in
                do {
                    return try ControlClient(path: path, timeoutSeconds: timeoutSeconds).request(command.rawValue, arguments: arguments)
                } catch {
                    throw LightShowError("\(WebRequestPolicy.unreachableDaemon) (\(path)): \(error)", exitStatus: .ioError)
                }
            }
        } catch {
            return .failure(error.message)
        }
        if reply["ok"] == true { return .success(reply["result"] ?? .null) }
        return .failure(reply["error"]?.stringValue ?? "the daemon answered \(reply)")
    }

    /// The daemon's Prometheus text with the web server's own counts; nil when the daemon can't be reached.
    public func metrics(_ counts: WebServerCounts) async -> String? {
        guard case .success(let result) = await handle(.metrics, arguments: ["web": counts.json]) else { return nil }
        return result["text"]?.stringValue
    }
}
