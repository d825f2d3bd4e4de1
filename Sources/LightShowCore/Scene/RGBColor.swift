/// An opaque sRGB colour with 8-bit channels.
public struct RGBColor: Equatable, Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#RRGGBB` (the `#` is optional). Returns nil for anything else.
    public init?(hex: String) {
        var text = Substring(hex)
        if text.first == "#" { text = text.dropFirst() }
        guard text.count == 6, let value = UInt32(text, radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// `#RRGGBB`, upper case.
    public var hex: String {
        let digits = Array("0123456789ABCDEF")
        var out = "#"
        for byte in [red, green, blue] {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return out
    }

    public static let black = RGBColor(red: 0, green: 0, blue: 0)
    public static let white = RGBColor(red: 255, green: 255, blue: 255)
}

extension RGBColor {
    /// Default light colours of the original design.
    public static func defaultColor(for band: Band) -> RGBColor {
        switch band {
        case .bass: RGBColor(red: 0xFF, green: 0x3B, blue: 0x30)
        case .mid: RGBColor(red: 0x34, green: 0xC7, blue: 0x59)
        case .treble: RGBColor(red: 0x0A, green: 0x84, blue: 0xFF)
        }
    }
}
