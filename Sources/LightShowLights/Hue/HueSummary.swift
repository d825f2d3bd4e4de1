import LightShowCore

/// How `lights test --list` and `lights test` describe a Hue output, from the settings alone (no bridge asked).
extension LightOutputSettings {
    /// `hue 192.168.1.30:443 area "Living room" (stream port 2100), 50 fps`.
    var hueSummary: String {
        let host = address.contains(":") ? "[\(address)]" : address
        var text = "hue \(host):\(port) area \"\(area)\" (stream port \(streamPort))"
        if !channelBands.isEmpty {
            text += ", channels " + channelBands.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.rawValue)" }.joined(separator: " ")
        }
        return text + ", \(framesPerSecondText) fps"
    }

    /// Which of the area's channels show `band`: those `channels` names, and those placed on its side.
    func huePlace(of band: Band) -> String {
        let named = channelBands.filter { $0.value == band }.keys.sorted().map(String.init)
        let side = switch band {
        case .bass: "the left"
        case .mid: "the centre"
        case .treble: "the right"
        }
        let positioned = "channels at \(side) of the area"
        return named.isEmpty ? positioned : "channel\(named.count == 1 ? "" : "s") \(named.joined(separator: ", ")) and other \(positioned)"
    }
}
