public import LightShowCore

/// One terminal cell: a character and its two colour codes, already reduced to the terminal's colour depth,
/// so cells that look the same on this terminal compare equal and are never redrawn.
public struct TerminalCell: Equatable, Sendable {
    /// Unicode scalar value of the character.
    public var scalar: UInt32
    public var foreground: UInt32
    public var background: UInt32

    public init(scalar: UInt32, foreground: UInt32, background: UInt32) {
        self.scalar = scalar
        self.foreground = foreground
        self.background = background
    }

    /// The terminal's own colour (SGR 39/49).
    public static let defaultColor: UInt32 = .max
    public static let space: UInt32 = 0x20
    public static let upperHalf: UInt32 = 0x2580
    /// Not a character: the right half of the wide glyph in the cell before, which the terminal draws there.
    public static let covered: UInt32 = 0
    public static let blank = TerminalCell(scalar: space, foreground: defaultColor, background: defaultColor)
}

/// A screen's worth of cells, filled from a framebuffer of upper-half-block pixels (two pixels per cell:
/// foreground = top pixel, background = bottom pixel) and overlaid with text.
public struct TerminalGrid: Equatable, Sendable {
    public let columns: Int
    public let rows: Int
    public let depth: TerminalColorDepth
    public var cells: [TerminalCell]

    public init(columns: Int, rows: Int, depth: TerminalColorDepth) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        self.depth = depth
        cells = [TerminalCell](repeating: .blank, count: self.columns * self.rows)
    }

    /// Every cell blank again, keeping the storage.
    public mutating func clear() {
        cells.withUnsafeMutableBufferPointer { $0.update(repeating: .blank) }
    }

    public subscript(column: Int, row: Int) -> TerminalCell {
        get { cells[row * columns + column] }
        set { cells[row * columns + column] = newValue }
    }

    /// The colour code of `color` at this grid's depth.
    @inline(__always)
    public func code(_ color: RGBColor) -> UInt32 {
        code(color.red, color.green, color.blue)
    }

    @inline(__always)
    func code(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt32 {
        Self.code(r, g, b, depth: depth)
    }

    @inline(__always)
    static func code(_ r: UInt8, _ g: UInt8, _ b: UInt8, depth: TerminalColorDepth) -> UInt32 {
        switch depth {
        case .truecolor: UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        case .palette256: UInt32(TerminalPalette.nearest256(RGBColor(red: r, green: g, blue: b)))
        case .ansi16: UInt32(TerminalPalette.nearest16(RGBColor(red: r, green: g, blue: b)))
        case .none: TerminalCell.defaultColor
        }
    }

    /// Fills the cells of `rows` from the image: pixel row 2·r on top, 2·r+1 below.
    public mutating func drawPixels(_ image: Framebuffer, rows rowRange: Range<Int>? = nil) {
        let range = rowRange ?? 0..<rows
        let width = min(columns, image.width), imageWidth = image.width, imageHeight = image.height
        let columns = columns, rows = rows, depth = depth
        var tolerance = PerceptualTolerance()
        image.pixels.withUnsafeBufferPointer { pixels in
            cells.withUnsafeMutableBufferPointer { cells in
                for row in range where row < rows {
                    let topY = 2 * row, bottomY = min(2 * row + 1, imageHeight - 1)
                    guard topY < imageHeight else { continue }
                    var t = topY * imageWidth * 3, b = bottomY * imageWidth * 3
                    let rowStart = row * columns
                    for column in 0..<width {
                        cells[rowStart + column] = Self.cell(
                            top: (pixels[t], pixels[t + 1], pixels[t + 2]),
                            bottom: (pixels[b], pixels[b + 1], pixels[b + 2]), depth: depth, tolerance: &tolerance)
                        t += 3
                        b += 3
                    }
                }
            }
        }
    }

    /// `halfBlock` for packed 24-bit colours: two pixels that look the same (`PerceptualTolerance`) become one
    /// space on their mean colour. A smooth gradient under a light differs by a unit or two from one pixel row to
    /// the next; sent as one colour, such a cell needs no foreground code and no glyph.
    @inline(__always)
    static func truecolorHalfBlock(top: UInt32, bottom: UInt32, tolerance: inout PerceptualTolerance) -> TerminalCell {
        guard top != bottom, tolerance.looksSame(top, bottom) else { return halfBlock(top: top, bottom: bottom) }
        let mean = (PerceptualTolerance.channels(top) &+ PerceptualTolerance.channels(bottom) &+ 1) / 2
        let packed = UInt32(mean.x) << 16 | UInt32(mean.y) << 8 | UInt32(mean.z)
        return TerminalCell(scalar: TerminalCell.space, foreground: packed, background: packed)
    }

    /// The cell showing pixel `top` over pixel `bottom` at `depth`. Without colour, brightness picks a shade.
    @inline(__always)
    static func cell(
        top: (UInt8, UInt8, UInt8), bottom: (UInt8, UInt8, UInt8), depth: TerminalColorDepth, tolerance: inout PerceptualTolerance
    ) -> TerminalCell {
        switch depth {
        case .truecolor:
            return truecolorHalfBlock(
                top: UInt32(top.0) << 16 | UInt32(top.1) << 8 | UInt32(top.2),
                bottom: UInt32(bottom.0) << 16 | UInt32(bottom.1) << 8 | UInt32(bottom.2), tolerance: &tolerance)
        case .none:
            let brightest = max(top.0, top.1, top.2, bottom.0, bottom.1, bottom.2)
            return TerminalCell(scalar: shade(brightest), foreground: TerminalCell.defaultColor, background: TerminalCell.defaultColor)
        case .palette256, .ansi16:
            return halfBlock(top: code(top.0, top.1, top.2, depth: depth), bottom: code(bottom.0, bottom.1, bottom.2, depth: depth))
        }
    }

    /// Uniform cells become spaces on their background, which costs one colour instead of two.
    @inline(__always)
    static func halfBlock(top: UInt32, bottom: UInt32) -> TerminalCell {
        top == bottom
            ? TerminalCell(scalar: TerminalCell.space, foreground: bottom, background: bottom)
            : TerminalCell(scalar: TerminalCell.upperHalf, foreground: top, background: bottom)
    }

    /// Writes `text` from `column` on `row` in these colours, clipped to the grid. Returns the next column.
    @discardableResult
    public mutating func put(_ text: String, column: Int, row: Int, foreground: RGBColor, background: RGBColor) -> Int {
        put(text, column: column, row: row, foreground: code(foreground), background: code(background))
    }

    @discardableResult
    public mutating func put(_ text: String, column: Int, row: Int, foreground: UInt32, background: UInt32) -> Int {
        lay(text, column: column, row: row, limit: columns, colors: (foreground, background))
    }

    /// Writes `text` from `column` on `row` over the colours already there, in the cells before `limit`.
    /// Returns the next column.
    @discardableResult
    public mutating func put(_ text: String, column: Int, row: Int, before limit: Int) -> Int {
        lay(text, column: column, row: row, limit: min(limit, columns), colors: nil)
    }

    /// Lays `text` out by display width (`CellWidth`): a wide glyph takes its cell and the next, marked `covered`,
    /// and a glyph that doesn't fit before `limit` ends the text, so no wide glyph lands in the last column (the
    /// terminal would wrap it to the next line).
    private mutating func lay(_ text: String, column: Int, row: Int, limit: Int, colors: (UInt32, UInt32)?) -> Int {
        var x = column
        guard row >= 0, row < rows else { return x }
        for character in text {
            guard let (scalar, width) = CellWidth.glyph(for: character) else { continue }
            if x + width > limit { break }
            if x >= 0 {
                set(x, row, to: scalar.value, colors: colors)
                if width == 2 { set(x + 1, row, to: TerminalCell.covered, colors: colors) }
            }
            x += width
        }
        return x
    }

    private mutating func set(_ column: Int, _ row: Int, to scalar: UInt32, colors: (UInt32, UInt32)?) {
        let index = row * columns + column
        cells[index].scalar = scalar
        if let (foreground, background) = colors {
            cells[index].foreground = foreground
            cells[index].background = background
        }
    }

    /// Shade characters for the colourless mode: the background stays blank, a bright light shows as █.
    static func shade(_ brightest: UInt8) -> UInt32 {
        let shades: [UInt32] = [0x20, 0x2591, 0x2592, 0x2593, 0x2588]
        return shades[min(4, max(0, (Int(brightest) - 80) / 35))]
    }
}
