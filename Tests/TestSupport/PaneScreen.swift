/// A terminal screen as `tmux capture-pane -e -p` prints it, parsed into cells with their colours, and the
/// half-block pixels they show (`▀`: foreground on top, background below; anything else: background).
public struct PaneScreen: Sendable {
    public struct RGB: Equatable, Sendable, Hashable {
        public var r: Int, g: Int, b: Int
        public init(_ r: Int, _ g: Int, _ b: Int) { self.r = r; self.g = g; self.b = b }
    }

    public struct Cell: Sendable {
        public var character: Character
        public var foreground: RGB?
        public var background: RGB?
    }

    public var rows: [[Cell]] = []
    /// The colours in effect at the end of each row: capture-pane leaves out trailing spaces, so a cell past a
    /// row's end is a space in these colours.
    private var trailing: [(foreground: RGB?, background: RGB?)] = []

    public init(parsing text: String) {
        var foreground: RGB?
        var background: RGB?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var cells: [Cell] = []
            var scalars = Array(line.unicodeScalars)[...]
            while let scalar = scalars.first {
                scalars = scalars.dropFirst()
                if scalar == "\u{1B}", scalars.first == "[" {
                    scalars = scalars.dropFirst()
                    var body = ""
                    while let next = scalars.first, !(0x40...0x7E).contains(next.value) {
                        body.unicodeScalars.append(next)
                        scalars = scalars.dropFirst()
                    }
                    let final = scalars.first
                    scalars = scalars.dropFirst()
                    if final == "m" { Self.apply(body, foreground: &foreground, background: &background) }
                    continue
                }
                cells.append(Cell(character: Character(scalar), foreground: foreground, background: background))
            }
            rows.append(cells)
            trailing.append((foreground, background))
        }
    }

    /// The cell at `column`, `row`; past the end of a captured row, the space capture-pane left out.
    public func cell(column: Int, row: Int) -> Cell? {
        guard row >= 0, row < rows.count, column >= 0 else { return nil }
        guard column < rows[row].count else {
            return Cell(character: " ", foreground: trailing[row].foreground, background: trailing[row].background)
        }
        return rows[row][column]
    }

    /// The pixel at (x, y) of the half-block canvas: column x, row y/2, top or bottom half.
    public func pixel(x: Int, y: Int) -> RGB? {
        guard let cell = cell(column: x, row: y / 2) else { return nil }
        if cell.character == "▀" { return y % 2 == 0 ? cell.foreground : cell.background }
        return cell.background
    }

    /// Bounds (in pixels) of the pixels for which `matches` holds, with their count.
    public func extent(where matches: (RGB) -> Bool) -> (minX: Int, maxX: Int, minY: Int, maxY: Int, count: Int)? {
        var result: (minX: Int, maxX: Int, minY: Int, maxY: Int, count: Int)?
        for (row, cells) in rows.enumerated() {
            for column in cells.indices {
                for y in [2 * row, 2 * row + 1] {
                    guard let p = pixel(x: column, y: y), matches(p) else { continue }
                    if var r = result {
                        r.minX = min(r.minX, column); r.maxX = max(r.maxX, column)
                        r.minY = min(r.minY, y); r.maxY = max(r.maxY, y); r.count += 1
                        result = r
                    } else {
                        result = (column, column, y, y, 1)
                    }
                }
            }
        }
        return result
    }

    /// The text of a row.
    public func line(_ row: Int) -> String {
        guard row >= 0, row < rows.count else { return "" }
        return String(rows[row].map(\.character))
    }

    private static func apply(_ body: String, foreground: inout RGB?, background: inout RGB?) {
        let parts = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        if parts.isEmpty { foreground = nil; background = nil; return }
        var index = 0
        while index < parts.count {
            let code = parts[index]
            switch code {
            case 0: foreground = nil; background = nil
            case 39: foreground = nil
            case 49: background = nil
            case 38, 48:
                var color: RGB?
                if index + 4 < parts.count, parts[index + 1] == 2 {
                    color = RGB(parts[index + 2], parts[index + 3], parts[index + 4]); index += 4
                } else if index + 2 < parts.count, parts[index + 1] == 5 {
                    index += 2
                }
                if code == 38 { foreground = color } else { background = color }
            default: break
            }
            index += 1
        }
    }
}
