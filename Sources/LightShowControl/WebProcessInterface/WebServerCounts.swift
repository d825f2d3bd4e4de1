/// The web server's own counts for `/metrics`: its open connections and its `/api/frames` viewers. The server runs
/// in a process of its own, so it hands them to the daemon with each `metrics` request
/// (`"web":{"clients":2,"viewers":1,"dropped_frames":0,"refusals":{"not_found":1}}`), and the daemon writes them beside its own.
public struct WebServerCounts: Equatable, Sendable {
    public var clients: Int
    public var viewers: Int
    public var droppedFrames: UInt64
    /// Requests refused so far, by `WebRejection.reason`.
    public var refusals: [String: UInt64]

    public init(clients: Int, viewers: Int, droppedFrames: UInt64, refusals: [String: UInt64] = [:]) {
        self.clients = clients
        self.viewers = viewers
        self.droppedFrames = droppedFrames
        self.refusals = refusals
    }

    public var json: JSONValue {
        [
            "clients": .number(Double(clients)), "viewers": .number(Double(viewers)), "dropped_frames": .number(Double(droppedFrames)),
            "refusals": .object(refusals.sorted { $0.key < $1.key }.reduce(into: JSONObject()) { $0[$1.key] = .number(Double($1.value)) }),
        ]
    }

    /// Reads the `web` member back; nil when it is absent or not three whole counts.
    public init?(json: JSONValue?) {
        guard let json, let clients = Self.count(json["clients"]), let viewers = Self.count(json["viewers"]),
              let dropped = Self.count(json["dropped_frames"]) else { return nil }
        // Only the labels the server uses become series: a stray member makes none.
        var refusals: [String: UInt64] = [:]
        let known = Set(WebRejection.reasons.values).union(["other"])
        if case .object(let members)? = json["refusals"] {
            for member in members.members where known.contains(member.key) {
                if let count = Self.count(member.value) { refusals[member.key] = count }
            }
        }
        self.init(clients: Int(clients), viewers: Int(viewers), droppedFrames: dropped, refusals: refusals)
    }

    /// A whole count below 2^53 (what a JSON number holds exactly).
    private static func count(_ value: JSONValue?) -> UInt64? {
        guard let number = value?.numberValue, number >= 0, number < 9_007_199_254_740_992, number.rounded() == number else { return nil }
        return UInt64(number)
    }
}
