import LightShowCore

/// One pixel row of an anti-aliased disc: the pixels it touches, the ones it covers fully, and the coverage of the
/// edge pixels between (`radius − distance + ½`, from the pixel centre, in units of the vertical radius; horizontal
/// distances scaled by `radiusY / radiusX` so non-square pixels still give a round disc).
/// Shared by `Framebuffer.fillCircle` and the terminal's light painter, so both draw the very same disc.
struct CircleRowSpan {
    /// Touched pixels, clipped to the image.
    let first: Int
    let last: Int
    /// Pixels whose centres lie strictly inside the inner radius: covered fully (may reach past the clip).
    let fullStart: Int
    let fullEnd: Int
    private let centerX: Double
    private let dy: Double
    private let xScale: Double
    private let radius: Double

    /// Row `y` of `circle` on an image `width` pixels wide; nil when the row misses the disc.
    init?(circle: SceneCircle, y: Int, width: Int) {
        let radius = circle.radiusY
        guard radius > 0, width > 0 else { return nil }
        let cx = circle.center.x
        let xScale = circle.radiusX > 0 ? radius / circle.radiusX : 1
        let outer = radius + 0.5, inner = max(0, radius - 0.5)
        let dy = Double(y) + 0.5 - circle.center.y
        let outerSquared = outer * outer - dy * dy
        guard outerSquared > 0 else { return nil }
        let outerHalf = outerSquared.squareRoot() / xScale
        let innerSquared = inner * inner - dy * dy
        let innerHalf = innerSquared > 0 ? innerSquared.squareRoot() / xScale : -1
        first = max(0, Int((cx - outerHalf - 0.5).rounded(.down)))
        last = min(width - 1, Int((cx + outerHalf - 0.5).rounded(.up)))
        guard first <= last else { return nil }
        fullStart = innerHalf >= 0 ? Int((cx - innerHalf - 0.5).rounded(.up)) : Int.max
        fullEnd = innerHalf >= 0 ? Int((cx + innerHalf - 0.5).rounded(.down)) : Int.min
        centerX = cx
        self.dy = dy
        self.xScale = xScale
        self.radius = radius
    }

    @inline(__always)
    func isFull(_ x: Int) -> Bool { x >= fullStart && x <= fullEnd }

    /// How much of pixel `x` the disc covers: 1 or more is all of it, 0 or less none.
    @inline(__always)
    func coverage(_ x: Int) -> Double {
        if isFull(x) { return 1 }
        let dx = (Double(x) + 0.5 - centerX) * xScale
        return radius - (dx * dx + dy * dy).squareRoot() + 0.5
    }

    /// The alpha (1/65536ths) a light at `a16` paints pixel `x` with, from its `coverage`; 0 leaves it alone.
    @inline(__always)
    static func alpha(_ a16: Int32, coverage: Double) -> Int32 {
        if coverage <= 0 { return 0 }
        return coverage >= 1 ? a16 : Int32((Double(a16) * coverage).rounded())
    }
}
