/// Where the connection to the broker stands, for `ctl status` and logs.
public enum MQTTConnectionState: Equatable, Sendable {
    /// Not configured (`[mqtt] broker` unset).
    case off
    case connecting
    case connected
    /// Lost or unreachable; reconnecting with backoff. The reason is libmosquitto's.
    case disconnected(String)
    /// Can't run at all (libmosquitto missing, a bad TLS file): nothing is retried.
    case failed(String)

    /// `off`, `connecting`, `connected`, `disconnected` or `failed`.
    public var name: String {
        switch self {
        case .off: "off"
        case .connecting: "connecting"
        case .connected: "connected"
        case .disconnected: "disconnected"
        case .failed: "failed"
        }
    }

    public var reason: String? {
        switch self {
        case .disconnected(let reason), .failed(let reason): reason
        default: nil
        }
    }
}
