/// How far apart two 24-bit colours may be and still look the same: 2/255 per channel, below what the eye tells
/// apart. Cells use it twice: two pixels this close share one colour, and a cell that moved no further since it
/// was sent is not sent again (what the screen shows never drifts more than this from the picture).
enum TrueColorTolerance {
    static let perChannel: Int32 = 2

    /// The packed colour's channels as lanes (the fourth is 0).
    @inline(__always)
    static func channels(_ packed: UInt32) -> SIMD4<Int32> {
        SIMD4(Int32(packed >> 16 & 0xFF), Int32(packed >> 8 & 0xFF), Int32(packed & 0xFF), 0)
    }

    /// True when `a` and `b` look the same. The terminal's own colour is like no other: its top byte is set,
    /// a packed colour's never is, so that lane alone tells them apart.
    @inline(__always)
    static func looksSame(_ a: UInt32, _ b: UInt32) -> Bool {
        if a == b { return true }
        let x = unsafeBitCast(a, to: SIMD4<UInt8>.self), y = unsafeBitCast(b, to: SIMD4<UInt8>.self)
        let difference = pointwiseMax(x, y) &- pointwiseMin(x, y)
        return all(difference .<= UInt8(perChannel))
    }
}
