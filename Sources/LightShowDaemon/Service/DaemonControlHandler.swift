import LightShowCore
import LightShowControl

/// The daemon's answers on the control socket and to MQTT (`subscribe` is streamed by the server itself).
struct DaemonControlHandler: ControlCommandHandler {
    let daemon: DaemonService

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
            return await daemon.reload(caller: "ctl reload")
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
}
