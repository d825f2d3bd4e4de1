import LightShowCore

/// `ctl status` for people, as `systemctl status` reads: the state and why, then one line each for the input and
/// its health, the title, the levels as bars, the outputs, the viewers, MQTT and the web server. Built from the
/// daemon's `status` reply, which comes from outside: a member that is missing or of the wrong kind is left out,
/// never guessed.
public enum StatusSummary {
    /// Cells in a level's bar.
    static let barWidth = 10

    public static func lines(_ status: JSONValue) -> [String] {
        var lines = [headline(status)]
        func add(_ label: String, _ text: String?) {
            guard let text, !text.isEmpty else { return }
            lines.append(label + String(repeating: " ", count: max(1, 9 - label.count)) + text)
        }
        add("Input:", input(status))
        add("Title:", status["title"]?.stringValue)
        add("Levels:", levels(status["levels"]))
        add("Outputs:", outputs(status))
        add("Viewers:", viewers(status))
        add("MQTT:", mqtt(status["mqtt"]))
        add("Web:", web(status["web"]))
        add("Config:", status["config"]?.stringValue)
        return lines
    }

    /// `● playing (user pressed play)`: the state, and why when the reply says.
    static func headline(_ status: JSONValue) -> String {
        let state = status["state"]?.stringValue ?? "unknown"
        let reason = status["reason"]?.stringValue.map { " (\($0))" } ?? ""
        return "● \(state)\(reason)"
    }

    /// `demo at 48000 Hz, 2 channels; capture running, 0 xruns`, or why it isn't open.
    static func input(_ status: JSONValue) -> String? {
        guard let device = status["device"]?.stringValue else { return nil }
        guard let rate = count(status["rate"]) else {
            return "\(device), not open: \(status["error"]?.stringValue ?? "opening")"
        }
        var text = "\(device) at \(rate) Hz"
        if let channels = count(status["channels"]) { text += ", \(plural(channels, "channel"))" }
        var health: [String] = []
        if let capture = status["capture"]?.stringValue { health.append("capture \(capture)") }
        if status["silent"]?.boolValue == true { health.append("silent") }
        for key in ["xruns", "recoveries", "losses", "reopens"] {
            if let value = count(status[key]) { health.append("\(value) \(key)") }
        }
        return health.isEmpty ? text : text + "; " + health.joined(separator: ", ")
    }

    /// `bass ████▌░░░░░ 45%  mid …`.
    static func levels(_ levels: JSONValue?) -> String? {
        let parts = Band.allCases.compactMap { band -> String? in
            guard let level = levels?[band.rawValue]?.numberValue, level.isFinite else { return nil }
            let clamped = min(1, max(0, level))
            return "\(band.rawValue) \(bar(clamped)) \(Int((clamped * 100).rounded()))%"
        }
        return parts.isEmpty ? nil : parts.joined(separator: "  ")
    }

    /// A bar of `barWidth` cells, in eighths of a cell.
    static func bar(_ fraction: Double) -> String {
        let eighths = Int((fraction * Double(barWidth * 8)).rounded())
        let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8]
        let full = eighths / 8
        let empty = barWidth - full - (partial.isEmpty ? 0 : 1)
        return String(repeating: "█", count: full) + partial + String(repeating: "░", count: max(0, empty))
    }

    /// The network lights, each with its health, and the master brightness.
    static func outputs(_ status: JSONValue) -> String? {
        var parts: [String] = []
        if case .array(let lights)? = status["lights"] {
            for light in lights {
                guard let destination = light["destination"]?.stringValue else { continue }
                let name = light["name"]?.stringValue.map { "\($0) " } ?? ""
                var text = "\(name)\(destination)"
                if light["sending"]?.boolValue == true { text += " sending" }
                if let packets = count(light["packets"]) { text += ", \(plural(packets, "packet"))" }
                if let errors = count(light["errors"]), errors > 0 { text += ", \(plural(errors, "error"))" }
                if let problem = light["last_error"]?.stringValue { text += " (last: \(problem))" }
                parts.append(text)
            }
        }
        if parts.isEmpty, status["lights"] != nil { parts.append("no network lights") }
        if let brightness = status["brightness"]?.numberValue, brightness.isFinite {
            parts.append("brightness \(Int((min(1, max(0, brightness)) * 100).rounded()))%")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    static func viewers(_ status: JSONValue) -> String? {
        var parts: [String] = []
        if let clients = count(status["clients"]) { parts.append(plural(clients, "control client")) }
        if let subscribers = count(status["subscribers"]) { parts.append(plural(subscribers, "subscriber")) }
        if let player = status["player"]?.boolValue { parts.append(player ? "player followed" : "no player") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// `connected`, or the state and why.
    static func mqtt(_ mqtt: JSONValue?) -> String? {
        guard let state = mqtt?["state"]?.stringValue else { return nil }
        guard let problem = mqtt?["error"]?.stringValue else { return state }
        return "\(state): \(problem)"
    }

    /// `serving http://127.0.0.1:8490/ (lightshow-web, pid 1234)`, `off`, or the state and why.
    static func web(_ web: JSONValue?) -> String? {
        guard let state = web?["state"]?.stringValue else { return nil }
        var text = state
        if let url = web?["url"]?.stringValue { text += " \(url)" }
        if let pid = count(web?["pid"]) { text += " (lightshow-web, pid \(pid))" }
        if let problem = web?["error"]?.stringValue { text += ": \(problem)" }
        return text
    }

    /// A whole, non-negative count that fits; nil for anything else.
    static func count(_ value: JSONValue?) -> Int? {
        guard let number = value?.numberValue, number.isFinite, number >= 0, number < 1e15, number.rounded() == number else {
            return nil
        }
        return Int(number)
    }

    static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
