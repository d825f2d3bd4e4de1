public import LightShowCore
import LightShowControl

/// One entertainment area (a v2 `entertainment_configuration`): the lights the user placed in the Hue app, as
/// channels with positions. Read from the bridge's reply, which is hostile input: ids, counts and positions are
/// checked, names made safe to print.
public struct HueEntertainmentArea: Sendable, Equatable {
    public struct Channel: Sendable, Equatable {
        public var id: Int
        /// Left (-1) to right (1), back to front, floor to ceiling, as the Hue app places it.
        public var x: Double
        public var y: Double
        public var z: Double
    }

    /// 36 characters: letters, digits and dashes (what HueStream carries).
    public var id: String
    public var name: String
    /// The application id streaming to it, when it is streaming (`status` "active").
    public var activeStreamer: String?
    public var channels: [Channel]

    /// Most areas read from one reply.
    static let maximumAreas = 64

    /// Every area in a `GET /clip/v2/resource/entertainment_configuration` reply; entries that aren't well formed
    /// are left out.
    static func list(from body: [UInt8]) throws(HueBridgeError) -> [HueEntertainmentArea] {
        let document: JSONValue
        do { document = try JSONParser.parse(body) } catch { throw .badResponse("\(error)") }
        guard case .array(let entries)? = document["data"] else { throw .badResponse("no \"data\" list") }
        return entries.prefix(maximumAreas).compactMap(area)
    }

    private static func area(_ entry: JSONValue) -> HueEntertainmentArea? {
        guard let id = entry["id"]?.stringValue, id.utf8.count == HueStreamMessage.areaIDLength,
              id.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") })
        else { return nil }
        let name = entry["metadata"]?["name"]?.stringValue ?? entry["name"]?.stringValue ?? ""
        var channels: [Channel] = []
        if case .array(let list)? = entry["channels"] {
            for item in list.prefix(HueStreamMessage.maximumChannels) {
                guard let number = item["channel_id"]?.numberValue, let channel = Int(exactly: number), (0...255).contains(channel) else { continue }
                let position = item["position"]
                channels.append(Channel(id: channel, x: coordinate(position?["x"]), y: coordinate(position?["y"]), z: coordinate(position?["z"])))
            }
        }
        var streamer: String?
        if entry["status"]?.stringValue == "active" {
            streamer = entry["active_streamer"]?["rid"]?.stringValue.map { SafeText.sanitized($0, limit: 64) } ?? "another application"
        }
        return HueEntertainmentArea(id: id, name: SafeText.sanitized(name, limit: 64), activeStreamer: streamer, channels: channels)
    }

    /// A position within -1…1 (anything else, NaN included, is clamped or 0).
    private static func coordinate(_ value: JSONValue?) -> Double {
        guard let number = value?.numberValue, number.isFinite else { return 0 }
        return min(1, max(-1, number))
    }

    /// The band a channel follows: `overrides` (the output's `channels`), else by its x position, left to right:
    /// bass, mid, treble.
    public static func band(of channel: Channel, overrides: [Int: Band]) -> Band {
        if let band = overrides[channel.id] { return band }
        if channel.x < -1.0 / 3 { return .bass }
        if channel.x > 1.0 / 3 { return .treble }
        return .mid
    }

    /// The area called `wanted` (its name, or its id) among `areas`.
    static func named(_ wanted: String, in areas: [HueEntertainmentArea]) -> HueEntertainmentArea? {
        areas.first { $0.id.lowercased() == wanted.lowercased() } ?? areas.first { $0.name == wanted }
    }

    /// `Living room (id 1a2b…): 3 channels` then one line a channel with its position and band.
    public func describe(overrides: [Int: Band] = [:]) -> [String] {
        var lines = ["\(name.isEmpty ? "(unnamed)" : "\"\(name)\"") id \(id): \(channels.count) channel\(channels.count == 1 ? "" : "s")"]
        for channel in channels {
            let position = [channel.x, channel.y, channel.z].map { String(format2: $0) }.joined(separator: ", ")
            lines.append("  channel \(channel.id) at (\(position)) -> \(Self.band(of: channel, overrides: overrides).rawValue)")
        }
        return lines
    }
}

extension String {
    /// `value` with two decimals (`-0.50`), without Foundation's formatter.
    public init(format2 value: Double) {
        let hundredths = (value * 100).rounded()
        guard hundredths.isFinite, abs(hundredths) < 1e9 else {
            self = "0.00"
            return
        }
        let whole = Int(hundredths)
        let sign = whole < 0 ? "-" : ""
        let magnitude = abs(whole)
        let fraction = magnitude % 100
        self = "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
