#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns successive grids into the bytes that update a terminal: only the cells that changed since the last frame,
/// a colour code only when the colour changes, the cursor moved only over gaps, and the whole frame wrapped in
/// synchronized output (`ESC[?2026h` … `ESC[?2026l`). A frame where nothing changed produces no bytes.
/// Keeps the terminal's state (cells, cursor, colours) between frames; `invalidate()` forces a full redraw.
///
/// What xterm and the X server pay for follows the runs drawn (text between two escape sequences, and erases),
/// about 5 µs of their CPU each, not the bytes: replaying the same frames into xterm with every colour code
/// written twice (1.7× the bytes) or in 256-colour form (0.7×) cost the same within 3%. So fewer cells sent is
/// what helps there; shorter codes don't.
///
/// Colours go to the cells themselves, never by animating palette entries (OSC 4): xterm repaints its whole screen
/// on every palette change, which on this picture cost xterm 0.034 and the X server 0.075 CPU-s/s at one change a
/// frame, against 0.020 and 0.024 for sending the changed cells (desktop-cost.sh's setting); measured again on a
/// full screen of palette cells, one OSC 4 a frame cost 0.046 and 0.109.
///
/// Synchronized output helps the terminals that have it (VTE, kitty, foot, WezTerm...). xterm (379) answers the
/// DECRQM query for mode 2026 with 0, not recognised; replaying the same frames with and without the two markers
/// cost it the same.
public struct TerminalEncoder: Sendable {
    /// Whether a run of blank cells goes out as one erase (ECH, `ESC[nX`), which a terminal with back-colour erase
    /// (terminfo `bce`) fills with the current background: no glyph per cell to parse and draw. Off by default:
    /// a terminal without it would erase to its own colour.
    public let erasesRuns: Bool
    /// Shortest run erased rather than written as spaces. The rows inside the lights sent as erases took xterm's
    /// CPU from 0.0406 and 0.0379 to 0.0299 and 0.0273 s/s and the X server's from 0.0459 and 0.0412 to 0.0399
    /// and 0.0359 (two paired runs of desktop-cost.sh). An erase and the cursor step after it take about 8 bytes,
    /// so shorter runs stay spaces.
    static let shortestErasedRun = 4
    private var previous: [TerminalCell] = []
    private var columns = 0
    private var rows = 0
    /// Where the terminal's cursor is, when known.
    private var cursorColumn = -1
    private var cursorRow = -1
    /// The current SGR colours, when known.
    private var foreground: UInt32?
    private var background: UInt32?
    private var depth: TerminalColorDepth = .truecolor
    /// Room for a frame's bytes, kept between frames.
    private var scratch: [UInt8] = []
    private var tolerance = PerceptualTolerance()

    public static let beginSynchronized: [UInt8] = Array("\u{1B}[?2026h".utf8)
    public static let endSynchronized: [UInt8] = Array("\u{1B}[?2026l".utf8)

    public init(erasesRuns: Bool = false) {
        self.erasesRuns = erasesRuns
    }

    /// Forget what the terminal shows (after a resize, a resume, or anything else that touched the screen).
    public mutating func invalidate() {
        previous = []
        columns = 0
        rows = 0
    }

    /// Appends to `out` the bytes that turn the last frame into `grid`; appends nothing when they are the same.
    /// `exactly` sends every cell that differs at all, however little: for a frame that will stay on screen (the
    /// dark end of a fade), which must not keep a faint ghost of what came before.
    public mutating func encode(_ grid: TerminalGrid, exactly: Bool = false, into out: inout [UInt8]) {
        let full = grid.columns != columns || grid.rows != rows || grid.depth != depth || previous.count != grid.cells.count
        let start = out.count
        out.append(contentsOf: Self.beginSynchronized)
        let bodyStart = out.count
        if full {
            // Nothing about the screen is known: reset colours and place the cursor explicitly.
            out.append(contentsOf: Array("\u{1B}[0m".utf8))
            foreground = TerminalCell.defaultColor
            background = TerminalCell.defaultColor
            cursorColumn = -1
            cursorRow = -1
            columns = grid.columns
            rows = grid.rows
            depth = grid.depth
            previous = grid.cells
        }
        // Taken out of self so emitting (which mutates self) doesn't overlap the access.
        var old = previous
        previous = []
        var scratch = self.scratch
        self.scratch = []
        let needed = max(1, grid.cells.count) * ByteCursor.maximumPerCell
        if scratch.count < needed { scratch = [UInt8](repeating: 0, count: needed) }
        let rowBytes = grid.columns * MemoryLayout<TerminalCell>.stride
        let tolerant = depth == .truecolor && !exactly
        var lastShown = TerminalCell.blank, lastCell = TerminalCell.blank, lastLooksSame = true
        let written = scratch.withUnsafeMutableBufferPointer { buffer in
            var bytes = ByteCursor(buffer.baseAddress!)
            grid.cells.withUnsafeBufferPointer { cells in
                old.withUnsafeMutableBufferPointer { previousCells in
                    for row in 0..<grid.rows {
                        let base = row * grid.columns
                        // Most rows don't change between frames: one memcmp skips them (cells are plain integers).
                        if !full && rowBytes > 0
                            && memcmp(previousCells.baseAddress! + base, cells.baseAddress! + base, rowBytes) == 0 {
                            continue
                        }
                        var column = 0
                        while column < grid.columns {
                            let cell = cells[base + column], shown = previousCells[base + column]
                            column += 1
                            if !full && shown == cell { continue }
                            if !full && tolerant {
                                // The cells of a row inside a light repeat the same pair: measured once.
                                if shown != lastShown || cell != lastCell {
                                    lastShown = shown
                                    lastCell = cell
                                    lastLooksSame = looksSame(shown, cell)
                                }
                                if lastLooksSame { continue }
                            }
                            if cell.scalar == TerminalCell.covered {
                                // The wide glyph before it draws it; a grid changes the two together.
                                previousCells[base + column - 1] = cell
                                continue
                            }
                            if erasesRuns && cell.scalar == TerminalCell.space {
                                var end = column
                                while end < grid.columns && cells[base + end] == cell { end += 1 }
                                if end - column + 1 >= Self.shortestErasedRun {
                                    let sent = erase(cell, column: column - 1, row: row, count: end - column + 1, tolerant: tolerant, into: &bytes)
                                    for index in (base + column - 1)..<(base + end) { previousCells[index] = sent }
                                    column = end
                                    continue
                                }
                            }
                            let sent = emit(cell, column: column - 1, row: row, tolerant: tolerant, into: &bytes)
                            previousCells[base + column - 1] = sent
                            // The same cell again over the same old one (a row inside a light) is sent the same way:
                            // its colours are set and the cursor is there, so only the glyph goes. The last column
                            // is left to `emit`, which knows the cursor waits there.
                            while column < grid.columns - 1 && cursorColumn == column
                                && cells[base + column] == cell && (full || previousCells[base + column] == shown) {
                                bytes.appendUTF8(cell.scalar)
                                previousCells[base + column] = sent
                                cursorColumn += 1
                                column += 1
                            }
                        }
                    }
                }
            }
            return bytes.count
        }
        out.append(contentsOf: scratch[0..<written])
        self.scratch = scratch
        previous = old
        if out.count == bodyStart {
            out.removeSubrange(start...)
        } else {
            out.append(contentsOf: Self.endSynchronized)
        }
    }

    /// Erases `count` cells from `column` to the background of `cell` (a space) and returns what the terminal now
    /// shows there. The cursor stays where the erase began.
    @inline(__always)
    private mutating func erase(_ cell: TerminalCell, column: Int, row: Int, count: Int, tolerant: Bool, into out: inout ByteCursor) -> TerminalCell {
        moveCursor(column: column, row: row, into: &out)
        var shown = cell
        shown.background = setColors(for: cell, needsForeground: false, tolerant: tolerant, into: &out).background
        out.append(0x1B); out.append(0x5B)
        out.appendDecimal(count)
        out.append(0x58)  // X: erase characters
        return shown
    }

    /// Sends `cell` and returns what the terminal now shows there. When `tolerant`, a colour the terminal already
    /// has set that looks the same as the cell's (`PerceptualTolerance`) is kept rather than sent again: within a
    /// light, neighbouring cells differ by a shade of the gradient, and most of a frame's colour codes go.
    @inline(__always)
    private mutating func emit(_ cell: TerminalCell, column: Int, row: Int, tolerant: Bool, into out: inout ByteCursor) -> TerminalCell {
        moveCursor(column: column, row: row, into: &out)
        // A space shows only its background; any other glyph needs both colours.
        let shown = setColors(for: cell, needsForeground: cell.scalar != TerminalCell.space, tolerant: tolerant, into: &out)
        out.appendUTF8(cell.scalar)
        cursorColumn += 1
        // Past the last column the cursor waits to wrap; a glyph of uncertain width may take two cells.
        if column == columns - 1 || !Self.isKnownNarrow(cell.scalar) {
            cursorColumn = -1
            cursorRow = -1
        }
        return shown
    }

    /// Sets the colours `cell` needs and returns it with the colours the terminal will show it in.
    @inline(__always)
    private mutating func setColors(for cell: TerminalCell, needsForeground: Bool, tolerant: Bool, into out: inout ByteCursor) -> TerminalCell {
        var shown = cell
        var setForeground = needsForeground && foreground != cell.foreground
        var setBackground = background != cell.background
        if tolerant {
            if setForeground, let current = foreground, canKeep(current, for: cell.foreground) {
                setForeground = false
                shown.foreground = current
            }
            if setBackground, let current = background, canKeep(current, for: cell.background) {
                setBackground = false
                shown.background = current
            }
        }
        if setForeground || setBackground {
            out.append(0x1B); out.append(0x5B)  // ESC [
            if setForeground {
                appendColor(cell.foreground, isForeground: true, into: &out)
                foreground = cell.foreground
            }
            if setBackground {
                if setForeground { out.append(0x3B) }
                appendColor(cell.background, isForeground: false, into: &out)
                background = cell.background
            }
            out.append(0x6D)  // m
        }
        return shown
    }

    /// Whether the terminal's current colour `current` can stand for `wanted`: both real colours (never the
    /// terminal's own) that look the same.
    @inline(__always)
    private mutating func canKeep(_ current: UInt32, for wanted: UInt32) -> Bool {
        current != TerminalCell.defaultColor && wanted != TerminalCell.defaultColor
            && tolerance.looksSame(current, wanted)
    }

    @inline(__always)
    private mutating func moveCursor(column: Int, row: Int, into out: inout ByteCursor) {
        if cursorRow == row && cursorColumn == column { return }
        out.append(0x1B); out.append(0x5B)
        if cursorRow == row && cursorColumn >= 0 && column > cursorColumn {
            let gap = column - cursorColumn
            if gap > 1 { out.appendDecimal(gap) }
            out.append(0x43)  // C: cursor forward
        } else {
            out.appendDecimal(row + 1)
            out.append(0x3B)
            out.appendDecimal(column + 1)
            out.append(0x48)  // H: cursor position
        }
        cursorColumn = column
        cursorRow = row
    }

    @inline(__always)
    private func appendColor(_ code: UInt32, isForeground: Bool, into out: inout ByteCursor) {
        if code == TerminalCell.defaultColor {
            out.append(isForeground ? 0x33 : 0x34); out.append(0x39)  // 39 / 49
            return
        }
        switch depth {
        case .truecolor:
            out.append(isForeground ? 0x33 : 0x34)
            out.append(0x38, 0x3B); out.append(0x32, 0x3B)  // 8;2;
            out.appendChannel(code >> 16); out.append(0x3B)
            out.appendChannel(code >> 8); out.append(0x3B)
            out.appendChannel(code)
        case .palette256:
            out.append(isForeground ? 0x33 : 0x34)
            out.append(0x38, 0x3B); out.append(0x35, 0x3B)  // 8;5;
            out.appendDecimal(Int(code))
        case .ansi16:
            let index = Int(code)
            out.appendDecimal(index < 8 ? (isForeground ? 30 : 40) + index : (isForeground ? 90 : 100) + index - 8)
        case .none:
            out.append(isForeground ? 0x33 : 0x34); out.append(0x39)
        }
    }

    /// A truecolor cell whose glyph is the same and whose colours moved no further than `PerceptualTolerance`:
    /// sending it again would change nothing anyone can see.
    @inline(__always)
    private mutating func looksSame(_ shown: TerminalCell, _ cell: TerminalCell) -> Bool {
        shown.scalar == cell.scalar && tolerance.looksSame(shown.background, cell.background)
            && (cell.scalar == TerminalCell.space || tolerance.looksSame(shown.foreground, cell.foreground))
    }

    /// Characters every terminal draws one cell wide: ASCII, box drawing, blocks and the shapes the viewer uses.
    static func isKnownNarrow(_ scalar: UInt32) -> Bool {
        scalar < 0x7F || (0x2500...0x25FF).contains(scalar) || scalar == 0xB7 || scalar == 0x2013 || scalar == 0x2014
            || scalar == 0x2190 || scalar == 0x2192 || scalar == 0x2026
    }
}
