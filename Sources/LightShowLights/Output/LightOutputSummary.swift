public import LightShowCore

/// How `lights test --list` and `lights test` describe an output and its parts, from the settings alone
/// (no lookup, so listing works without the network).
extension LightOutputSettings {
    /// `sacn 239.255.0.1:5568 universe 1 (multicast), fixtures, 44 fps`.
    public var summary: String {
        if networkProtocol == .hue { return hueSummary }
        if networkProtocol == .wledSync { return audioSyncSummary }
        var text = networkProtocol.rawValue + " "
        if networkProtocol == .sacn, address.isEmpty {
            text += "\(SACNPacket.multicastGroup(universe: universe)):\(port) (multicast)"
        } else {
            text += address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
        }
        if networkProtocol.isDMX { text += " universe \(universe)" }
        text += ", \(layout.rawValue)"
        if layout == .strip { text += " of \(pixels) pixels" }
        return text + ", \(framesPerSecondText) fps"
    }

    /// `wled-sync 239.0.0.1:11988 (multicast), 16-channel GEQ, 50 fps`.
    private var audioSyncSummary: String {
        let parts = address.split(separator: ".", omittingEmptySubsequences: false).compactMap { Int($0) }
        let multicast = parts.count == 4 && (224...239).contains(parts[0]) ? " (multicast)" : ""
        let host = address.contains(":") ? "[\(address)]" : address
        return "wled-sync \(host):\(port)\(multicast), 16-channel GEQ, \(framesPerSecondText) fps"
    }

    /// `44`, or `12.5`.
    var framesPerSecondText: String {
        framesPerSecond == framesPerSecond.rounded() && abs(framesPerSecond) < 1e6 ? String(Int(framesPerSecond)) : String(framesPerSecond)
    }

    /// Where `band` shows: `channels 1-3`, `pixel 2`, `pixels 51-100` (DMX channels and pixels count from 1).
    public func place(of band: Band) -> String {
        if networkProtocol == .hue { return huePlace(of: band) }
        let part = StripSegments(pixels: layout == .strip ? pixels : 3).range(of: band)
        if networkProtocol.isDMX {
            return "channels \(start + part.lowerBound * 3)-\(start + part.upperBound * 3 - 1)"
        }
        let first = start + part.lowerBound, last = start + part.upperBound - 1
        return first == last ? "pixel \(first)" : "pixels \(first)-\(last)"
    }
}

/// Where the persistent sACN CID lives: systemd's `$STATE_DIRECTORY` (the first, if it lists several), else
/// `$XDG_STATE_HOME/lightshow`, else `~/.local/state/lightshow`; nil when none is known.
public enum LightsStateDirectory {
    public static func path(environment: [String: String]) -> String? {
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first, state.hasPrefix("/") {
            return String(state)
        }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/lightshow"
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return home + "/.local/state/lightshow"
        }
        return nil
    }
}
