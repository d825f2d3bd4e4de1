/// The zlib stream checksum, computed here rather than by zlib: filtered light-show rows are mostly zero bytes,
/// and skipping zero words (where only the second sum moves) makes it several times faster than zlib's.
struct Adler32 {
    private var a: UInt32 = 1
    private var b: UInt32 = 0
    private static let modulus: UInt32 = 65_521
    /// Most bytes that can be summed before `b` could overflow 32 bits (zlib's NMAX).
    private static let blockLimit = 5_552

    var value: UInt32 { b << 16 | a }

    mutating func update(_ bytes: UnsafePointer<UInt8>, count: Int) {
        var pointer = bytes
        var remaining = count
        var a = self.a, b = self.b
        while remaining > 0 {
            var n = min(remaining, Self.blockLimit)
            remaining -= n
            while n >= 8 {
                if UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self) == 0 {
                    b &+= 8 &* a
                } else {
                    for i in 0..<8 {
                        a &+= UInt32(pointer[i])
                        b &+= a
                    }
                }
                pointer += 8
                n -= 8
            }
            while n > 0 {
                a &+= UInt32(pointer[0])
                b &+= a
                pointer += 1
                n -= 1
            }
            a %= Self.modulus
            b %= Self.modulus
        }
        self.a = a
        self.b = b
    }
}
