/// Appends bytes to memory reserved in advance: the encoder's hot loop writes each byte with a store instead of
/// an array append (which checks uniqueness and capacity every time).
struct ByteCursor {
    /// Most bytes one cell can take: a cursor position (`ESC[r;cH`), both colours in truecolor and a 4-byte glyph.
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
