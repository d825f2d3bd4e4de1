#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The background's linear gradient: two colours and an angle, mapped to gradient points by `points(angleDegrees:)`.
/// Gradient space has its origin top-left, y down, and spans the canvas as 0…1 on both axes,
/// so the gradient stretches with the canvas.
public struct LinearGradient: Equatable, Sendable {
    public var from: RGBColor
    public var to: RGBColor
    /// Where t = 0, in gradient space.
    public let start: ScenePoint
    /// Where t = 1, in gradient space.
    public let end: ScenePoint

    /// - Parameter angleDegrees: counter-clockwise from east; 270 runs top to bottom.
    public init(from: RGBColor, to: RGBColor, angleDegrees: Double) {
        self.from = from
        self.to = to
        (start, end) = Self.points(angleDegrees: angleDegrees)
    }

    public init(_ settings: BackgroundSettings) {
        self.init(from: settings.from, to: settings.to, angleDegrees: settings.angle)
    }

    /// Start and end points in gradient space for an angle.
    public static func points(angleDegrees: Double) -> (start: ScenePoint, end: ScenePoint) {
        let theta = angleDegrees * Double.pi / 180
        var x = cos(theta)
        var y = sin(theta)
        // Push the unit-circle point out to the edge of the unit square.
        if abs(x) > abs(y) {
            x = x < 0 ? -1 : 1
            y = x * tan(theta)
        } else {
            y = y < 0 ? -1 : 1
            x = y / tan(theta)
        }
        // y up in the unit square, y down in gradient space.
        func toGradientSpace(_ px: Double, _ py: Double) -> ScenePoint {
            ScenePoint(x: (px + 1) / 2, y: 1 - (py + 1) / 2)
        }
        return (toGradientSpace(-x, -y), toGradientSpace(x, y))
    }

    /// Position along the gradient (0…1, clamped) of a point in gradient space.
    public func t(at point: ScenePoint) -> Double {
        let dx = end.x - start.x, dy = end.y - start.y
        let lengthSquared = dx * dx + dy * dy
        guard lengthSquared > 0 else { return 0 }
        let t = ((point.x - start.x) * dx + (point.y - start.y) * dy) / lengthSquared
        return min(1, max(0, t))
    }

    /// Position along the gradient of pixel (x, y) on a canvas of the given size: p = (x/width, y/height).
    public func t(x: Double, y: Double, width: Double, height: Double) -> Double {
        t(at: ScenePoint(x: x / width, y: y / height))
    }

    /// Colour of pixel (x, y) on a canvas of the given size.
    public func color(x: Double, y: Double, width: Double, height: Double) -> RGBColor {
        from.mixed(with: to, fraction: t(x: x, y: y, width: width, height: height))
    }
}
