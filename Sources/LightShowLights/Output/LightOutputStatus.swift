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
    /// True from a failed send until one succeeds again.
    public var isFailing = false

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

    /// One short line for systemd's STATUS=: `lights 2/3 sending, 1 failing (lights[2]: …)`; "" without outputs.
    /// States only, no counters (`ctl status` has those), so the line changes when something happens, not with
    /// every packet.
    public static func summary(_ statuses: [LightOutputStatus]) -> String {
        guard !statuses.isEmpty else { return "" }
        let sending = statuses.count { $0.isSending }
        var text = "lights \(sending)/\(statuses.count) sending"
        let failing = statuses.filter(\.isFailing)
        if let last = failing.last {
            text += ", \(failing.count) failing (\(last.name): \(last.lastError ?? "send failed"))"
        }
        return text
    }

    /// Whether `summary` would read differently.
    static func summaryChanged(from old: [LightOutputStatus], to new: [LightOutputStatus]) -> Bool {
        old.count != new.count || zip(old, new).contains { old, new in
            old.name != new.name || old.isSending != new.isSending || old.isFailing != new.isFailing
                || new.isFailing && old.lastError != new.lastError
        }
    }
}
