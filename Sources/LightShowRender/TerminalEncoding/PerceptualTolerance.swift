import LightShowCore

/// How far apart two 24-bit colours may be and still look the same: CIEDE2000 ΔE ≤ 1.5, about one and a half
/// times the smallest difference seen side by side, and far less than anyone sees between frames 17 ms apart.
/// Cells use it twice: two pixels this close share one colour (each then within about 0.75 of its own), and a
/// cell whose colour moved no further since it was sent is not sent again, so a colour on screen is never more
/// than 1.5 from its cell's; once a second, and at the dark end of a fade, every cell goes out exactly.
/// Replaying the frames a per-channel tolerance of 2/255 sent for desktop-cost.sh's music, it skips 41% of them.
/// Each judge keeps the CIELAB values of the colours it has seen (`LabCache`).
struct PerceptualTolerance {
    static let maximumDifference = 1.5
    /// What is measured against: the single-precision colours `LabCache` keeps move a difference by less than
    /// 10⁻⁴, so nothing judged the same is further apart than `maximumDifference`.
    static let measuredLimit = maximumDifference - 1e-4
    /// Colours further apart than this in some channel are taken as different without measuring: most moving
    /// cells are told apart with one comparison, and the same replay skips 41.1% of the cells instead of 41.5%.
    static let widestChannelStep: UInt8 = 6

    private var cache = LabCache()

    /// The packed colour's channels as lanes (the fourth is 0).
    @inline(__always)
    static func channels(_ packed: UInt32) -> SIMD4<Int32> {
        SIMD4(Int32(packed >> 16 & 0xFF), Int32(packed >> 8 & 0xFF), Int32(packed & 0xFF), 0)
    }

    /// True when `a` and `b` look the same. The terminal's own colour is like no other: its top byte is set,
    /// a packed colour's never is, so that lane alone tells them apart.
    @inline(__always)
    mutating func looksSame(_ a: UInt32, _ b: UInt32) -> Bool {
        if a == b { return true }
        let x = unsafeBitCast(a, to: SIMD4<UInt8>.self), y = unsafeBitCast(b, to: SIMD4<UInt8>.self)
        let difference = pointwiseMax(x, y) &- pointwiseMin(x, y)
        guard all(difference .<= Self.widestChannelStep) else { return false }
        return ColorDifference.isWithin(Self.measuredLimit, cache.lab(a), cache.lab(b))
    }

    @inline(__always)
    static func color(_ packed: UInt32) -> RGBColor {
        RGBColor(red: UInt8(truncatingIfNeeded: packed >> 16), green: UInt8(truncatingIfNeeded: packed >> 8), blue: UInt8(truncatingIfNeeded: packed))
    }
}
