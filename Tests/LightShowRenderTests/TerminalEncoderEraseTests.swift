import LightShowCore
import LightShowRender
import Testing

/// Runs of blank cells as erases (ECH), for terminals that erase to the current background.
@Suite struct TerminalEncoderEraseTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// One row of eight spaces on black, then the given (first column, colour) stretches on top.
    private func row(_ stretches: [(Range<Int>, RGBColor)], text: (String, Int)? = nil) -> TerminalGrid {
        var grid = TerminalGrid(columns: 8, rows: 1, depth: .truecolor)
        for column in 0..<8 { grid.put(" ", column: column, row: 0, foreground: .white, background: .black) }
        for (columns, color) in stretches {
            for column in columns { grid.put(" ", column: column, row: 0, foreground: .white, background: color) }
        }
        if let (glyph, column) = text { grid.put(glyph, column: column, row: 0, foreground: .white, background: .black) }
        return grid
    }

    private let red = RGBColor(red: 255, green: 0, blue: 0)
    private let green = RGBColor(red: 0, green: 255, blue: 0)
    private let blue = RGBColor(red: 0, green: 0, blue: 255)

    @Test func runsGoAsErasesAndTheCursorStepsOverThem() {
        var encoder = TerminalEncoder(erasesRuns: true)
        var out: [UInt8] = []
        encoder.encode(row([]), into: &out)
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[0m\u{1B}[1;1H\u{1B}[48;2;0;0;0m\u{1B}[8X\u{1B}[?2026l")
        // The erase left the cursor where it began: the next run starts there without a move.
        out.removeAll()
        encoder.encode(row([(0..<6, red)]), into: &out)
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[48;2;255;0;0m\u{1B}[6X\u{1B}[?2026l")
        // Three cells are shorter than an erase and the step after it: spaces.
        out.removeAll()
        encoder.encode(row([(0..<3, blue), (3..<6, red)]), into: &out)
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[48;2;0;0;255m   \u{1B}[?2026l")
        // After an erase the cursor is still at its start: a later change on the row steps forward from there.
        out.removeAll()
        encoder.encode(row([(0..<5, green), (5..<6, red)], text: ("a", 7)), into: &out)
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[1;1H\u{1B}[48;2;0;255;0m\u{1B}[5X\u{1B}[7C\u{1B}[38;2;255;255;255;48;2;0;0;0ma\u{1B}[?2026l")
    }

    /// Erased cells are what the terminal shows from then on: the same frame again sends nothing.
    @Test func erasedCellsAreRemembered() {
        var encoder = TerminalEncoder(erasesRuns: true)
        var out: [UInt8] = []
        encoder.encode(row([(2..<8, red)]), into: &out)
        out.removeAll()
        encoder.encode(row([(2..<8, red)]), into: &out)
        #expect(out.isEmpty)
    }

    @Test func withoutBackColourEraseRunsAreSpaces() {
        var encoder = TerminalEncoder()
        var out: [UInt8] = []
        encoder.encode(row([]), into: &out)
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[0m\u{1B}[1;1H\u{1B}[48;2;0;0;0m        \u{1B}[?2026l")
    }
}
