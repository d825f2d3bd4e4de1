import LightShowCore
import LightShowControl

/// The daemon's answers on the control socket and to MQTT (`subscribe` is streamed by the server itself).
struct DaemonControlHandler: ControlCommandHandler {
    /// Where commands come from, so the log can say who asked for a reload.
    enum Channel: Sendable {
        /// `lightshow ctl`, viewers and scripts on the control socket.
        case controlSocket
        /// The daemon's own web server on behalf of its clients (known by the connection's peer, a child).
        case web
        /// Home Assistant's reload button.
        case mqtt
    }

    let daemon: DaemonService
    var channel = Channel.controlSocket

    /// The control socket's requests: the web server's connections are told from local clients' by the kernel.
    func handle(_ command: ControlCommand, arguments: JSONObject, from peer: ControlPeer) async -> ControlReply {
        var handler = self
        if peer == .child { handler.channel = .web }
        return await handler.handle(command, arguments: arguments)
    }

    func handle(_ command: ControlCommand, arguments: JSONObject) async -> ControlReply {
        switch command {
        case .status, .subscribe:
            return .success(daemon.status.json)
        case .play, .pause, .toggle, .stop:
            guard let user = UserCommand(rawValue: command.rawValue) else { return .failure("unknown command") }
            guard daemon.send(user) else {
                return .failure("no input is open (\(daemon.status.statusLine)); try again once capture runs")
            }
            return .success(["sent": .string(user.rawValue)])
        case .reload:
            return await daemon.reload(caller: caller)
        case .setBand:
            return await daemon.setBand(arguments)
        case .setColor:
            return await daemon.setColor(arguments)
        case .setBrightness:
            return await daemon.setBrightness(arguments)
        case .setInput:
            return await daemon.setInput(arguments)
        case .metrics:
            // The web server's counts only while it runs: a stale or stray report makes no series.
            let web = daemon.web.port == nil ? nil : WebServerCounts(json: arguments["web"])
            return .success(["text": .string(daemon.metricsText(web: web))])
        }
    }

    /// Who asked, for the log: from the channel the request came by, never from the request's text.
    private var caller: String {
        switch channel {
        case .mqtt: "MQTT reload button"
        case .web: "web POST /api/reload"
        case .controlSocket: "ctl reload"
        }
    }
}
