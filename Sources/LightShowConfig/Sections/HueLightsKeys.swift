import LightShowCore

/// The keys of a `protocol = "hue"` entry in `[[lights]]`: the bridge (`address`, HOST[:PORT] of its HTTPS API),
/// the entertainment `area` (name or id), `stream_port` and the optional `channels` table of bands by channel id.
/// The pairing (keys and the pinned certificate) lives in the state directory, never here. Keys of the other protocols
/// (`port`, `universe`, `layout`, …) are unknown keys here: the port goes in `address`.
enum HueLightsKeys {
    /// Channel ids `channels` may name: an entertainment area has at most 20 channels, numbered from 0.
    static let channelIDs = 0..<20

    static func read(_ entry: SectionReader, into settings: inout LightOutputSettings) {
        if let address = entry.string("address") {
            if let split = HostAndPort.parse(address, defaultPort: settings.port), HostSyntax.problem(in: split.host) == nil {
                settings.address = split.host
                settings.port = split.port
            } else {
                entry.error("address", "expected the bridge as HOST or HOST:PORT such as \"192.168.1.30\", found \"\(address)\"")
            }
        } else {
            entry.error("address", "required for hue: the bridge's host name or IP address")
        }
        if let area = entry.plainText("area", maximumBytes: 64) {
            if area.isEmpty { entry.error("area", "expected the entertainment area's name or id") } else { settings.area = area }
        } else if !entry.contains("area") {
            entry.error("area", "required for hue: the entertainment area's name or id (`lightshow lights pair-hue HOST` lists them)")
        }
        entry.integer("stream_port", in: 1...65535).assign(to: &settings.streamPort)
        entry.section("channels") { table in
            for id in channelIDs where table.isSet(String(id)) {
                table.parsed(String(id), expected: "\"bass\", \"mid\" or \"treble\"", Band.init(rawValue:)).map { settings.channelBands[id] = $0 }
            }
        }
    }
}
