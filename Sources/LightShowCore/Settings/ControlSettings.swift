/// `[control]`: the daemon's control socket.
public struct ControlSettings: Equatable, Sendable {
    /// "" = `$RUNTIME_DIRECTORY/control.sock`, else `$XDG_RUNTIME_DIR/lightshow/control.sock`.
    public var socket: String = ""
    /// Most clients served at once.
    public var maxClients: Int = 16
    /// A client that sends no complete request for this long (idle, or stuck half-way through a line) is closed,
    /// so silent connections can't hold every slot. Subscribers are exempt: they only read.
    public var idleTimeoutSeconds: Double = 10

    public init() {}
}
