/// `[mqtt]`: the MQTT broker and the Home Assistant topics. Off unless `broker` is set.
public struct MQTTSettings: Equatable, Sendable {
    /// "" = off; "HOST" or "HOST:PORT" ("[v6-address]:PORT").
    public var broker: String = ""
    /// "" = `lightshow-<host>`.
    public var clientID: String = ""
    public var username: String = ""
    public var password: String = ""
    /// A file holding the password (its first line), read when the daemon starts; instead of `password`.
    public var passwordFile: String = ""
    public var tls = false
    /// "" = the system's certificates.
    public var caFile: String = ""
    public var discoveryPrefix: String = "homeassistant"
    /// "" = `lightshow/<host>`.
    public var baseTopic: String = ""

    public static let defaultPort = 1883

    public init() {}

    public var isEnabled: Bool { !broker.isEmpty }

    /// `broker` split into host and port (the default port when none is given); nil when it has no such form.
    public static func hostAndPort(_ broker: String) -> (host: String, port: Int)? {
        HostAndPort.parse(broker, defaultPort: defaultPort)
    }

    /// The base topic for `host` when none is configured.
    public func resolvedBaseTopic(host: String) -> String {
        baseTopic.isEmpty ? "lightshow/\(host)" : baseTopic
    }

    public func resolvedClientID(host: String) -> String {
        clientID.isEmpty ? "lightshow-\(host)" : clientID
    }
}
