/// The device block every discovery config carries, and the prefix of its entities' unique ids.
public struct HomeAssistantDevice: Equatable, Sendable {
    /// Shown in Home Assistant, e.g. `lightshow on den`.
    public var name: String
    /// Unique among lightshows on one broker: `lightshow_<host>`, letters, digits and `_` only.
    public var identifier: String
    public var model = "lightshow"
    public var version: String

    public init(host: String, version: String) {
        name = "lightshow on \(host)"
        identifier = "lightshow_" + Self.objectIDCharacters(host)
        self.version = version
    }

    /// Home Assistant's object ids take `[a-zA-Z0-9_-]`; anything else becomes `_`.
    public static func objectIDCharacters(_ text: String) -> String {
        let cleaned = String(text.unicodeScalars.prefix(64).map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
                ? Character(scalar) : "_"
        })
        return cleaned.isEmpty ? "host" : cleaned
    }
}
