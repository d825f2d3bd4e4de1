/// One output as `ctl status` and systemd's STATUS= show it.
public struct LightOutputStatus: Sendable, Equatable, CustomStringConvertible {
    /// `name`, else `lights[N]`.
    public var name: String
    /// Protocol, address and universe: `sacn 239.255.0.1:5568 universe 1`.
    public var destination: String
    /// Datagrams the kernel accepted.
    public var packetsSent: Int = 0
    /// Datagrams that failed (no route, buffer full, …).
    public var sendErrors: Int = 0
    /// The newest send failure, nil until one happens.
    public var lastError: String?
    /// True while the output is lit (sending); false before the first frame and after a stop went dark.
    public var isSending = false

    public init(name: String, destination: String) {
        self.name = name
        self.destination = destination
    }

    /// `lights[1] sacn 239.255.0.1:5568 universe 1: 1200 packets, 2 errors (last: …)`.
    public var description: String {
        var text = "\(name) \(destination): \(packetsSent) packets"
        if sendErrors > 0 { text += ", \(sendErrors) errors" }
        if let lastError { text += " (last error: \(lastError))" }
        return text
    }

    /// One short line for systemd's STATUS=: `lights 2/3 sending, 1200 packets, 2 errors (lights[2]: …)`;
    /// "" without outputs.
    public static func summary(_ statuses: [LightOutputStatus]) -> String {
        guard !statuses.isEmpty else { return "" }
        let sending = statuses.count { $0.isSending }
        let packets = statuses.reduce(0) { $0 + $1.packetsSent }
        let errors = statuses.reduce(0) { $0 + $1.sendErrors }
        var text = "lights \(sending)/\(statuses.count) sending, \(packets) packets"
        if errors > 0 {
            text += ", \(errors) errors"
            if let failing = statuses.last(where: { $0.lastError != nil }), let error = failing.lastError {
                text += " (\(failing.name): \(error))"
            }
        }
        return text
    }
}
