/// A D-Bus value read from a peer, already capped (`DBusReader`): strings shortened, arrays and dictionaries
/// trimmed, nesting cut off. Types a player has no business sending (file descriptors) are `unsupported`.
indirect enum DBusValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case unsigned(UInt64)
    case double(Double)
    case boolean(Bool)
    case array([DBusValue])
    /// `a{sv}`-like dictionaries with string keys; entries with other keys are dropped.
    case dictionary([String: DBusValue])
    case unsupported

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var boolean: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    /// Any number as a Double (players disagree on the integer type of `mpris:length`).
    var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .unsigned(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The strings of an array of strings (or a lone string, as some players send `xesam:artist`).
    var strings: [String] {
        switch self {
        case .string(let text): [text]
        case .array(let values): values.compactMap(\.string)
        default: []
        }
    }

    var dictionary: [String: DBusValue] {
        if case .dictionary(let entries) = self { return entries }
        return [:]
    }
}
