import LightShowCore
import LightShowRender
import Testing

@Suite struct TerminalEncoderTests {
    private let red = RGBColorBytes(255, 0, 0)
    private let blue = RGBColorBytes(0, 0, 255)

    /// 2×2 pixels: a red top row over a blue bottom row in column 0, all blue in column 1 → one cell row.
    private func image() -> Framebuffer {
        var image = Framebuffer(width: 2, height: 2, fill: blue)
        image.pixels[0] = 255; image.pixels[1] = 0; image.pixels[2] = 0
        return image
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func exactBytesForAKnownFramebuffer() {
        var grid = TerminalGrid(columns: 2, rows: 1, depth: .truecolor)
        grid.drawPixels(image())
        var encoder = TerminalEncoder()
        var out: [UInt8] = []
        encoder.encode(grid, into: &out)
        // Full redraw: reset, home, ▀ red on blue, then a space on the blue already set (no colour repeated).
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[0m\u{1B}[1;1H\u{1B}[38;2;255;0;0;48;2;0;0;255m▀ \u{1B}[?2026l")
    }

    /// A wide glyph is sent once for its two cells: nothing for the cell it covers (a NUL or a space there would
    /// land on its right half), and the next glyph is placed by position, since terminals disagree on widths.
    @Test func aWideGlyphIsSentOnceForBothItsCells() {
        var grid = TerminalGrid(columns: 4, rows: 1, depth: .none)
        grid.put("漢x", column: 0, row: 0, foreground: TerminalCell.defaultColor, background: TerminalCell.defaultColor)
        var encoder = TerminalEncoder()
        var out: [UInt8] = []
        encoder.encode(grid, into: &out)
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[0m\u{1B}[1;1H漢\u{1B}[1;3Hx \u{1B}[?2026l")
    }

    @Test func anUnchangedFrameWritesNothing() {
        var grid = TerminalGrid(columns: 2, rows: 1, depth: .truecolor)
        grid.drawPixels(image())
        var encoder = TerminalEncoder()
        var out: [UInt8] = []
        encoder.encode(grid, into: &out)
        out.removeAll()
        encoder.encode(grid, into: &out)
        #expect(out.isEmpty)
    }

    @Test func onlyTheChangedCellIsRedrawn() {
        var grid = TerminalGrid(columns: 3, rows: 2, depth: .truecolor)
        var encoder = TerminalEncoder()
        var out: [UInt8] = []
        encoder.encode(grid, into: &out)
        out.removeAll()
        grid.put("x", column: 2, row: 1, foreground: .white, background: .black)
        encoder.encode(grid, into: &out)
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[2;3H\u{1B}[38;2;255;255;255;48;2;0;0;0mx\u{1B}[?2026l")
    }

    @Test func cursorJumpsForwardOverUnchangedCellsOnARow() {
        var grid = TerminalGrid(columns: 6, rows: 1, depth: .truecolor)
        var encoder = TerminalEncoder()
        var out: [UInt8] = []
        encoder.encode(grid, into: &out)
        out.removeAll()
        grid.put("a", column: 0, row: 0, foreground: .white, background: .black)
        grid.put("b", column: 3, row: 0, foreground: .white, background: .black)
        encoder.encode(grid, into: &out)
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[1;1H\u{1B}[38;2;255;255;255;48;2;0;0;0ma\u{1B}[2Cb\u{1B}[?2026l")
    }

    /// One row of spaces on these backgrounds, each given as (r, g, b).
    private func spaces(_ backgrounds: [(UInt8, UInt8, UInt8)]) -> TerminalGrid {
        var grid = TerminalGrid(columns: backgrounds.count, rows: 1, depth: .truecolor)
        for (column, (r, g, b)) in backgrounds.enumerated() {
            grid.put(" ", column: column, row: 0, foreground: .white, background: RGBColor(red: r, green: g, blue: b))
        }
        return grid
    }

    /// A colour already set that looks the same as the next cell's (within 2/255 a channel) is kept, not sent
    /// again; one further off is sent.
    @Test func aColourThatLooksTheSameIsNotSentAgain() {
        let grid = spaces([(100, 100, 100), (102, 100, 98), (103, 100, 100)])
        var encoder = TerminalEncoder()
        var out: [UInt8] = []
        encoder.encode(grid, into: &out)
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[0m\u{1B}[1;1H\u{1B}[48;2;100;100;100m  \u{1B}[48;2;103;100;100m \u{1B}[?2026l")
    }

    /// A run of the same cell over the same old cells goes out as its glyphs alone, up to the last column, where
    /// the cursor waits to wrap and the next frame places it again.
    @Test func aRunOfTheSameCellSendsOnlyItsGlyphs() {
        var encoder = TerminalEncoder()
        var out: [UInt8] = []
        encoder.encode(spaces(Array(repeating: (0, 0, 0), count: 5)), into: &out)
        out.removeAll()
        encoder.encode(spaces(Array(repeating: (200, 0, 0), count: 5)), into: &out)
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[1;1H\u{1B}[48;2;200;0;0m     \u{1B}[?2026l")
        out.removeAll()
        var grid = spaces(Array(repeating: (200, 0, 0), count: 5))
        grid.put("ab", column: 0, row: 0, foreground: .white, background: RGBColor(red: 200, green: 0, blue: 0))
        encoder.encode(grid, into: &out)
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[1;1H\u{1B}[38;2;255;255;255mab\u{1B}[?2026l")
    }

    /// The encoder remembers the colour the terminal really shows, not the one asked for: a later frame that
    /// moves that cell further than the tolerance from what is shown redraws it, though it is within the
    /// tolerance of what was asked before.
    @Test func aKeptColourIsWhatTheNextFrameIsComparedWith() {
        var encoder = TerminalEncoder()
        var out: [UInt8] = []
        encoder.encode(spaces([(100, 100, 100), (102, 100, 100)]), into: &out)
        out.removeAll()
        encoder.encode(spaces([(100, 100, 100), (103, 100, 100)]), into: &out)
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[1;2H\u{1B}[48;2;103;100;100m \u{1B}[?2026l")
    }

    /// Sent exactly (the dark end of a fade), every colour goes out as it is.
    @Test func exactFramesKeepNoColourThatOnlyLooksTheSame() {
        var encoder = TerminalEncoder()
        var out: [UInt8] = []
        encoder.encode(spaces([(100, 100, 100), (101, 100, 100)]), exactly: true, into: &out)
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[0m\u{1B}[1;1H\u{1B}[48;2;100;100;100m \u{1B}[48;2;101;100;100m \u{1B}[?2026l")
    }

    @Test func invalidateRedrawsEverything() {
        var grid = TerminalGrid(columns: 2, rows: 1, depth: .truecolor)
        grid.drawPixels(image())
        var encoder = TerminalEncoder()
        var first: [UInt8] = [], second: [UInt8] = []
        encoder.encode(grid, into: &first)
        encoder.invalidate()
        encoder.encode(grid, into: &second)
        #expect(first == second)
    }

    /// Channels of one, two and three digits, and the extremes, are written in plain decimal.
    @Test func truecolorChannelsOfEveryWidth() {
        var grid = TerminalGrid(columns: 3, rows: 1, depth: .truecolor)
        grid.put("a", column: 0, row: 0, foreground: RGBColor(red: 7, green: 42, blue: 200), background: RGBColor(red: 0, green: 9, blue: 10))
        grid.put("b", column: 1, row: 0, foreground: RGBColor(red: 99, green: 100, blue: 255), background: RGBColor(red: 0, green: 9, blue: 10))
        var encoder = TerminalEncoder()
        var out: [UInt8] = []
        encoder.encode(grid, into: &out)
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[0m\u{1B}[1;1H\u{1B}[38;2;7;42;200;48;2;0;9;10ma\u{1B}[38;2;99;100;255mb"
            + "\u{1B}[49m \u{1B}[?2026l")
    }

    @Test func palette256Bytes() {
        var grid = TerminalGrid(columns: 2, rows: 1, depth: .palette256)
        grid.drawPixels(image())
        var encoder = TerminalEncoder()
        var out: [UInt8] = []
        encoder.encode(grid, into: &out)
        // Red → cube 16+36·5 = 196, blue → 16+5 = 21.
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[0m\u{1B}[1;1H\u{1B}[38;5;196;48;5;21m▀ \u{1B}[?2026l")
    }

    @Test func sixteenColourBytes() {
        var grid = TerminalGrid(columns: 2, rows: 1, depth: .ansi16)
        grid.drawPixels(image())
        var encoder = TerminalEncoder()
        var out: [UInt8] = []
        encoder.encode(grid, into: &out)
        // Red → bright red (9): 91 foreground; pure blue → blue (4, xterm 0,0,238): 44 background.
        #expect(text(out) == "\u{1B}[?2026h\u{1B}[0m\u{1B}[1;1H\u{1B}[91;44m▀ \u{1B}[?2026l")
    }

    @Test func colourlessModeUsesShadesAndNoColourCodes() {
        var grid = TerminalGrid(columns: 2, rows: 1, depth: .none)
        grid.drawPixels(Framebuffer(width: 2, height: 2, fill: RGBColorBytes(255, 255, 255)))
        #expect(grid[0, 0].scalar == 0x2588)
        var encoder = TerminalEncoder()
        var out: [UInt8] = []
        encoder.encode(grid, into: &out)
        #expect(!text(out).contains("38;"))
        #expect(!text(out).contains("48;"))
    }
}

@Suite struct TerminalPaletteTests {
    @Test func nearest256PicksCubeAndGreyRamp() {
        #expect(TerminalPalette.nearest256(RGBColor(red: 255, green: 0, blue: 0)) == 196)
        #expect(TerminalPalette.nearest256(RGBColor(red: 0, green: 0, blue: 0)) == 16)
        #expect(TerminalPalette.nearest256(RGBColor(red: 128, green: 128, blue: 128)) == 244)  // grey 128
        #expect(TerminalPalette.nearest256(RGBColor(red: 0x34, green: 0xC7, blue: 0x59)) == 16 + 36 * 1 + 6 * 4 + 1)
        // Every result maps back within one cube step of the input.
        for value in stride(from: 0, through: 255, by: 17) {
            let color = RGBColor(red: UInt8(value), green: UInt8(255 - value), blue: UInt8(value / 2))
            let back = TerminalPalette.color(ofIndex256: TerminalPalette.nearest256(color))
            #expect(abs(Int(back.red) - Int(color.red)) <= 48)
            #expect(abs(Int(back.green) - Int(color.green)) <= 48)
        }
    }

    @Test func nearest16() {
        #expect(TerminalPalette.nearest16(RGBColor(red: 0xFF, green: 0x3B, blue: 0x30)) == 9)
        #expect(TerminalPalette.nearest16(RGBColor(red: 0x34, green: 0xC7, blue: 0x59)) == 2)
        #expect(TerminalPalette.nearest16(RGBColor(red: 0x10, green: 0x10, blue: 0x20)) == 0)
        #expect(TerminalPalette.nearest16(RGBColor(red: 250, green: 250, blue: 250)) == 15)
    }

    @Test func colourDepthDetection() {
        #expect(TerminalColorDepth.detect(environment: ["COLORTERM": "truecolor", "TERM": "xterm"]) == .truecolor)
        #expect(TerminalColorDepth.detect(environment: ["COLORTERM": "24bit"]) == .truecolor)
        #expect(TerminalColorDepth.detect(environment: ["TERM": "tmux-256color"]) == .palette256)
        #expect(TerminalColorDepth.detect(environment: ["TERM": "xterm"]) == .ansi16)
        #expect(TerminalColorDepth.detect(environment: ["COLORTERM": "truecolor", "NO_COLOR": "1"]) == TerminalColorDepth.none)
        #expect(TerminalColorDepth.detect(environment: ["NO_COLOR": "1"], override: .palette256) == .palette256)
    }
}
