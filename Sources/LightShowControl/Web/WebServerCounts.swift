/// The web server's own counts for `/metrics`: its open connections and its `/api/frames` viewers. The server runs
/// in a process of its own, so it hands them to the daemon with each `metrics` request
/// (`"web":{"clients":2,"viewers":1,"dropped_frames":0}`), and the daemon writes them beside its own.
public struct WebServerCounts: Equatable, Sendable {
    public var clients: Int
    public var viewers: Int
    public var droppedFrames: UInt64

    public init(clients: Int, viewers: Int, droppedFrames: UInt64) {
        self.clients = clients
        self.viewers = viewers
        self.droppedFrames = droppedFrames
    }

    public var json: JSONValue {
        ["clients": .number(Double(clients)), "viewers": .number(Double(viewers)), "dropped_frames": .number(Double(droppedFrames))]
    }

    /// Reads the `web` member back; nil when it is absent or not three whole counts.
    public init?(json: JSONValue?) {
        guard let json, let clients = Self.count(json["clients"]), let viewers = Self.count(json["viewers"]),
              let dropped = Self.count(json["dropped_frames"]) else { return nil }
        self.init(clients: Int(clients), viewers: Int(viewers), droppedFrames: dropped)
    }

    /// A whole count below 2^53 (what a JSON number holds exactly).
    private static func count(_ value: JSONValue?) -> UInt64? {
        guard let number = value?.numberValue, number >= 0, number < 9_007_199_254_740_992, number.rounded() == number else { return nil }
        return UInt64(number)
    }
}
