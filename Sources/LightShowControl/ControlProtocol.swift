/// The commands a client may send on the control socket.
public enum ControlCommand: String, CaseIterable, Sendable {
    case status, play, pause, toggle, stop, reload, subscribe
    /// `{"cmd":"set-band","band":"bass","lower":30,"upper":200}`: a band's range, checked as the config checks it.
    case setBand = "set-band"
    /// `{"cmd":"set-color","color":"#RRGGBB"}`: one colour for all three lights, or with `"band":"mid"` for one.
    case setColor = "set-color"
    /// `{"cmd":"set-brightness","brightness":0.5}`: the master brightness, 0…1, scaling every output.
    case setBrightness = "set-brightness"
    /// `{"cmd":"set-input","input":"pulse"}`: switch to another input (any spec `--input` takes).
    case setInput = "set-input"
    /// `{"cmd":"metrics"}`: the daemon's Prometheus text, `{"text":"…"}`. The web server process adds its own counts
    /// as `"web":{"clients":N,"viewers":N,"dropped_frames":N}`; it serves the text as `GET /metrics`.
    case metrics
}

/// What a command handler answers: a result object, or an error message for the caller.
public enum ControlReply: Equatable, Sendable {
    case success(JSONValue)
    case failure(String)

    /// What a reply line says: `"ok":true` with its result, else its error (the whole line when it names none).
    public init(reply: JSONValue) {
        if reply["ok"] == true {
            self = .success(reply["result"] ?? .null)
        } else {
            self = .failure(reply["error"]?.stringValue ?? "the daemon answered \(reply)")
        }
    }
}

/// Who sent a request, as the kernel tells it (`SO_PEERCRED`), never as the request says.
public enum ControlPeer: Sendable, Equatable {
    /// A local client: `lightshow ctl`, a viewer, a script.
    case local
    /// A child process of the server's own (the daemon's web server, on behalf of its clients).
    case child
}

/// Carries out control commands; the engine implements it. Called off the socket thread, one request per
/// connection at a time. `subscribe` never reaches the handler: the server streams frames itself.
public protocol ControlCommandHandler: Sendable {
    func handle(_ command: ControlCommand, arguments: JSONObject) async -> ControlReply
    /// A request from the control socket, with who connected it; by default the same as any other.
    func handle(_ command: ControlCommand, arguments: JSONObject, from peer: ControlPeer) async -> ControlReply
}

extension ControlCommandHandler {
    public func handle(_ command: ControlCommand, arguments: JSONObject, from peer: ControlPeer) async -> ControlReply {
        await handle(command, arguments: arguments)
    }
}

/// One parsed request line: `{"id":1,"cmd":"status", …arguments}`.
public struct ControlRequest: Equatable, Sendable {
    /// Echoed in the reply; null when the client sent none.
    public var id: JSONValue
    public var command: ControlCommand
    /// Every member besides `id` and `cmd`.
    public var arguments: JSONObject

    public init(id: JSONValue = .null, command: ControlCommand, arguments: JSONObject = [:]) {
        self.id = id
        self.command = command
        self.arguments = arguments
    }

    /// A request that could not be understood, with the id when one could be read.
    public struct Invalid: Error, Equatable {
        public var id: JSONValue
        public var message: String
    }

    static let commandList = ControlCommand.allCases.map(\.rawValue).joined(separator: ", ")

    /// The version of this protocol, in the reply to `subscribe` (`"protocol":1`): a viewer that meets another
    /// daemon (one started before an upgrade) says so instead of misreading its events. A daemon that names none
    /// speaks version 1.
    public static let protocolVersion = 1

    /// Parses one line (without its newline).
    public static func parse(_ line: [UInt8]) -> Result<ControlRequest, Invalid> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return .failure(Invalid(id: .null, message: "\(error.description)"))
        }
        guard case .object(var members) = value else {
            return .failure(Invalid(id: .null, message: #"expected a JSON object like {"id":1,"cmd":"status"}"#))
        }
        let id = members["id"] ?? .null
        members["id"] = nil
        guard let name = members["cmd"] else {
            return .failure(Invalid(id: id, message: #"missing "cmd""#))
        }
        members["cmd"] = nil
        guard let text = name.stringValue, let command = ControlCommand(rawValue: text) else {
            return .failure(Invalid(id: id, message: "unknown command \(name); expected one of \(commandList)"))
        }
        return .success(ControlRequest(id: id, command: command, arguments: members))
    }

    /// The reply line for this request.
    public func replyLine(_ reply: ControlReply) -> [UInt8] {
        ControlRequest.replyLine(id: id, reply)
    }

    /// `{"id":…,"ok":true,"result":…}` or `{"id":…,"ok":false,"error":"…"}`, newline-terminated.
    public static func replyLine(id: JSONValue, _ reply: ControlReply) -> [UInt8] {
        switch reply {
        case .success(let result): (["id": id, "ok": true, "result": result] as JSONValue).line
        case .failure(let message): (["id": id, "ok": false, "error": .string(message)] as JSONValue).line
        }
    }
}
