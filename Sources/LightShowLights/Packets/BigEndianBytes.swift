/// Appending network-order (big-endian) fields: every protocol here is big-endian but for Art-Net's OpCode.
extension Array where Element == UInt8 {
    mutating func append(bigEndian value: UInt16) {
        append(UInt8(value >> 8))
        append(UInt8(value & 0xFF))
    }

    mutating func append(bigEndian value: UInt32) {
        append(bigEndian: UInt16(value >> 16))
        append(bigEndian: UInt16(value & 0xFFFF))
    }

    /// `text` as UTF-8, cut or NUL-padded to exactly `length` bytes.
    mutating func append(paddedUTF8 text: String, length: Int) {
        let bytes = text.utf8.prefix(length)
        append(contentsOf: bytes)
        append(contentsOf: repeatElement(0, count: length - bytes.count))
    }
}
