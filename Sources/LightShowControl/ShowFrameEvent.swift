public import LightShowCore

/// The `frame` event subscribers receive, and its reading on the viewer side, so `watch --connect` and
/// `record --connect` draw exactly the frames the daemon computed:
/// `{"event":"frame","index":12,"t":0.2,"bass":0.82,"mid":0.1,"treble":0.02,"state":"playing","title":"…","elapsed":12.5}`.
public enum ShowFrameEvent {
    public static let name = "frame"

    public static func encode(_ frame: ShowFrame) -> JSONValue {
        var event: JSONObject = [
            "event": .string(name),
            "index": .number(Double(frame.index)),
            "t": .number(frame.time),
            "bass": .number(Double(frame.levels.bass)),
            "mid": .number(Double(frame.levels.mid)),
            "treble": .number(Double(frame.levels.treble)),
            "state": .string(frame.state.rawValue),
            "title": .string(frame.title),
        ]
        if let elapsed = frame.elapsed { event["elapsed"] = .number(elapsed) }
        return .object(event)
    }

    /// The frame in a `frame` event; nil for other events or a malformed one.
    public static func decode(_ value: JSONValue) -> ShowFrame? {
        guard value["event"]?.stringValue == name,
              let index = value["index"]?.numberValue, let time = value["t"]?.numberValue,
              let bass = value["bass"]?.numberValue, let mid = value["mid"]?.numberValue,
              let treble = value["treble"]?.numberValue,
              let state = value["state"]?.stringValue.flatMap(PlaybackState.init(rawValue:)),
              index.isFinite, index >= 0, time.isFinite
        else { return nil }
        // From another process: levels clamped to 0…1, the title made safe for a terminal, no trapping conversions.
        func level(_ value: Double) -> Float { value.isFinite ? Float(min(1, max(0, value))) : 0 }
        let elapsed = value["elapsed"]?.numberValue.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        return ShowFrame(
            index: Int(saturating: index), time: time,
            levels: BandLevels(bass: level(bass), mid: level(mid), treble: level(treble)),
            state: state, title: SafeText.sanitized(value["title"]?.stringValue ?? ""), elapsed: elapsed
        )
    }
}
