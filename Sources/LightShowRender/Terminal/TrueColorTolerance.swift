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

    /// True when `a` and `b` look the same. The terminal's own colour is like no other.
    @inline(__always)
    static func looksSame(_ a: UInt32, _ b: UInt32) -> Bool {
        if a == b { return true }
        if a == TerminalCell.defaultColor || b == TerminalCell.defaultColor { return false }
        let difference = channels(a) &- channels(b)
        return all(difference .<= perChannel .& difference .>= -perChannel)
    }
}
