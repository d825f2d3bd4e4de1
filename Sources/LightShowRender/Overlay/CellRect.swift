public import LightShowCore

/// A rectangle of terminal cells: columns left to right, rows top to bottom, counted from 0.
public struct CellRect: Equatable, Sendable {
    public var column: Int
    public var row: Int
    public var width: Int
    public var height: Int

    public init(column: Int, row: Int, width: Int, height: Int) {
        self.column = column
        self.row = row
        self.width = width
        self.height = height
    }

    public var lastColumn: Int { column + width - 1 }
    public var lastRow: Int { row + height - 1 }
    public var centerColumn: Int { column + (width - 1) / 2 }

    /// The cells covering a pixel rectangle of a half-block canvas (one pixel per column, two per row).
    public init(pixels rect: SceneRect) {
        let left = Int(rect.x.rounded(.down)), right = Int(rect.maxX.rounded(.up))
        let top = Int((rect.y / 2).rounded(.down)), bottom = Int((rect.maxY / 2).rounded(.up))
        self.init(column: left, row: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// The cells a light's circle covers on a half-block canvas.
    public init(circle: SceneCircle) {
        self.init(pixels: SceneRect(
            x: circle.center.x - circle.radiusX, y: circle.center.y - circle.radiusY,
            width: 2 * circle.radiusX, height: 2 * circle.radiusY
        ))
    }
}
