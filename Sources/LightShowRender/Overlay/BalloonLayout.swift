import LightShowCore

/// Where a help balloon goes on a grid of cells: a bordered box of wrapped text and an arrow (▼ or ▲) pointing at
/// the target. Above the target when there is room, else below it; when neither fits, below and pushed up
/// inside the screen, still pointing up at the target.
public struct BalloonLayout: Equatable, Sendable {
    public enum Placement: Equatable, Sendable {
        case above, below

        /// The arrow glyph: ▼ from a balloon above, ▲ from one below.
        public var arrow: Character { self == .above ? "▼" : "▲" }
    }

    public var placement: Placement
    /// The box including its one-cell border.
    public var box: CellRect
    public var lines: [String]
    public var arrowColumn: Int
    public var arrowRow: Int

    /// Widest text line, so the balloon stays readable on a wide terminal.
    public static let maxTextWidth = 44

    /// Nil when the grid can't hold even a one-word balloon.
    public init?(text: String, target: CellRect, columns: Int, rows: Int) {
        let textWidth = min(Self.maxTextWidth, columns - 4)
        guard textWidth >= 4, rows >= 4 else { return nil }
        let lines = Self.wrap(text, width: textWidth)
        let width = (lines.map(\.count).max() ?? 0) + 4
        let height = lines.count + 2
        guard height + 1 <= rows else { return nil }

        let aboveArrow = target.row - 1
        let belowArrow = target.lastRow + 1
        let top: Int
        if aboveArrow - height >= 0 {
            placement = .above
            arrowRow = aboveArrow
            top = aboveArrow - height
        } else {
            placement = .below
            // Below the target, pushed up as far as needed to stay on the screen.
            top = min(belowArrow + 1, rows - height)
            arrowRow = top - 1
        }
        let left = min(max(0, target.centerColumn - width / 2), columns - width)
        box = CellRect(column: left, row: top, width: width, height: height)
        arrowColumn = min(max(target.centerColumn, left + 1), left + width - 2)
        self.lines = lines
    }

    /// Greedy word wrap; a word longer than `width` is cut.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            let piece = String(word.prefix(width))
            if line.isEmpty {
                line = piece
            } else if line.count + 1 + piece.count <= width {
                line += " " + piece
            } else {
                lines.append(line)
                line = piece
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
