/// `[control]`: the daemon's control socket.
public struct ControlSettings: Equatable, Sendable {
    /// "" = `$RUNTIME_DIRECTORY/control.sock`, else `$XDG_RUNTIME_DIR/lightshow/control.sock`.
    public var socket: String = ""
    /// Most clients served at once.
    public var maxClients: Int = 16

    public init() {}
}
