/// Appends bytes to memory reserved in advance: the encoder's hot loop writes each byte with a store instead of
/// an array append (which checks uniqueness and capacity every time).
struct ByteCursor {
    /// Most bytes one cell can take: a cursor position (`ESC[r;cH`), both colours in truecolor and a 4-byte glyph
    /// (55 at most), with room for `appendChannel`'s spare bytes.
    static let maximumPerCell = 64

    let base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>) {
        self.base = base
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ a: UInt8, _ b: UInt8) {
        base[count] = a
        base[count + 1] = b
        count += 2
    }

    /// A colour channel (0…255) in decimal: one table look-up and one 4-byte store, no branches. The store's
    /// spare bytes land past the end, inside the room reserved per cell, and are overwritten or never sent.
    @inline(__always)
    mutating func appendChannel(_ value: UInt32) {
        let entry = Self.channelDigits[Int(value & 0xFF)]
        UnsafeMutableRawPointer(base + count).storeBytes(of: entry, as: UInt32.self)
        count += Int(entry >> 24)
    }

    /// For each value 0…255: its ASCII digits in the low bytes (first digit lowest), their count in the top byte.
    private static let channelDigits: [UInt32] = (0..<256).map { (value: Int) -> UInt32 in
        let digits = Array(String(value).utf8)
        var entry = UInt32(digits.count) << 24
        for (position, digit) in digits.enumerated() { entry |= UInt32(digit) << (8 * position) }
        return entry
    }

    mutating func appendDecimal(_ value: Int) {
        // Colour channels and screen positions are almost always under 1000: no recursion for those.
        if value < 10 {
            append(UInt8(0x30 + value))
        } else if value < 100 {
            append(UInt8(0x30 + value / 10), UInt8(0x30 + value % 10))
        } else if value < 1000 {
            append(UInt8(0x30 + value / 100), UInt8(0x30 + value / 10 % 10))
            append(UInt8(0x30 + value % 10))
        } else {
            appendDecimal(value / 10)
            append(UInt8(0x30 + value % 10))
        }
    }

    @inline(__always)
    mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            append(UInt8(scalar))
        case 0x80..<0x800:
            append(UInt8(0xC0 | scalar >> 6), UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            append(UInt8(0xE0 | scalar >> 12), UInt8(0x80 | scalar >> 6 & 0x3F))
            append(UInt8(0x80 | scalar & 0x3F))
        default:
            append(UInt8(0xF0 | scalar >> 18), UInt8(0x80 | scalar >> 12 & 0x3F))
            append(UInt8(0x80 | scalar >> 6 & 0x3F), UInt8(0x80 | scalar & 0x3F))
        }
    }
}
