/// A point in abstract pixel units (x right, y down).
public struct ScenePoint: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// An axis-aligned rectangle in abstract pixel units; origin top-left.
public struct SceneRect: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let zero = SceneRect(x: 0, y: 0, width: 0, height: 0)

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var center: ScenePoint { ScenePoint(x: x + width / 2, y: y + height / 2) }
}

/// An ellipse in pixel units that is a circle on screen: the radii differ only by the pixel aspect.
public struct SceneCircle: Equatable, Sendable {
    public var center: ScenePoint
    /// Horizontal radius in pixels.
    public var radiusX: Double
    /// Vertical radius in pixels.
    public var radiusY: Double

    public init(center: ScenePoint, radiusX: Double, radiusY: Double) {
        self.center = center
        self.radiusX = radiusX
        self.radiusY = radiusY
    }
}
