public import LightShowAudio
public import LightShowCore
public import LightShowControl
public import LightShowEngine
public import LightShowLights
public import LightShowMQTT

/// A snapshot of the daemon for `ctl status` and systemd's `STATUS=` line.
public struct DaemonStatus: Sendable {
    public var input: InputSpec
    /// Nil while the input is not open.
    public var sampleRate: Int?
    public var channels: Int?
    public var openError: String?
    public var capture: CaptureStatistics
    public var show: ShowStatus?
    public var levels: BandLevels
    public var bands: BandsSettings
    public var clients: Int
    public var subscribers: Int
    public var configFile: String?
    /// Each network light output: destination, packets sent, the last error.
    public var lights: [LightOutputStatus] = []
    /// The input is open and its reader alive, but no audio has come for a while (a paused player, a silent fifo).
    public var silent = false
    /// The master brightness, 0…1 (`[scene] brightness`, `set-brightness`).
    public var brightness = 1.0
    /// The MQTT broker connection; `off` without `[mqtt] broker`.
    public var mqtt = MQTTConnectionState.off
    /// The inputs `set-input` accepts (`InputChoices`).
    public var inputs: [String] = []
    /// The web server: `{"state":"off"}`, or serving (its address and pid), or being started again and why.
    public var web: JSONValue = ["state": "off"]

    /// One line for `systemctl status`: device, rate, state, xruns, subscribers.
    public var statusLine: String {
        guard let sampleRate else {
            return "waiting for \(input): \(openError ?? "opening")"
        }
        let state = show?.state.rawValue ?? PlaybackState.stopped.rawValue
        let plural = subscribers == 1 ? "" : "s"
        let quiet = silent ? "input silent, " : ""
        let lightsSummary = LightOutputStatus.summary(lights)
        let mqttSummary = mqtt == .off ? "" : "; MQTT \(mqtt.name)"
        return "\(input) at \(sampleRate) Hz, \(quiet)\(state), \(capture.overruns) xruns, \(capture.recoveries) recoveries, "
            + "\(subscribers) subscriber\(plural)" + (lightsSummary.isEmpty ? "" : "; \(lightsSummary)") + mqttSummary
    }

    /// The `status` reply.
    public var json: JSONValue {
        var result: JSONObject = [
            "device": .string(input.description),
            "rate": sampleRate.map { .number(Double($0)) } ?? .null,
            "channels": channels.map { .number(Double($0)) } ?? .null,
            "state": .string((show?.state ?? .stopped).rawValue),
            "reason": .string(show?.reason.description ?? "input not open"),
            "title": .string(show?.title ?? ""),
            "levels": [
                "bass": .number(Double(levels.bass)),
                "mid": .number(Double(levels.mid)),
                "treble": .number(Double(levels.treble)),
            ],
            "capture": .string(capture.state.rawValue),
            "silent": .bool(silent),
            "xruns": .number(Double(capture.overruns)),
            "recoveries": .number(Double(capture.recoveries)),
            "losses": .number(Double(capture.losses)),
            "reopens": .number(Double(capture.reopens)),
            "clients": .number(Double(clients)),
            "subscribers": .number(Double(subscribers)),
            "player": .bool(show?.playerConnected ?? false),
            "config": .string(configFile ?? "(built-in defaults)"),
            "brightness": .number(brightness),
            "mqtt": ["state": .string(mqtt.name), "error": mqtt.reason.map { .string($0) } ?? .null],
            "web": web,
        ]
        result["inputs"] = .array(inputs.map { .string(SafeText.sanitized($0)) })
        if let openError { result["error"] = .string(openError) }
        var bandsObject = JSONObject()
        for band in Band.allCases {
            let entry = bands[band]
            bandsObject[band.rawValue] = [
                "lower": .number(entry.range.lower),
                "upper": .number(entry.range.upper),
                "color": .string(entry.color.hex),
            ]
        }
        result["bands"] = .object(bandsObject)
        result["lights"] = .array(lights.map { light in
            [
                "name": .string(light.name),
                "destination": .string(light.destination),
                "packets": .number(Double(light.packetsSent)),
                "errors": .number(Double(light.sendErrors)),
                "last_error": light.lastError.map { .string($0) } ?? .null,
                "sending": .bool(light.isSending),
            ]
        })
        return .object(result)
    }
}
