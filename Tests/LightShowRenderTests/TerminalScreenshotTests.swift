import Foundation
import LightShowCore
import LightShowRender
import Testing
import TestSupport

/// The picture as xterm really draws it (Xvfb, `import -window root`, libpng): the lights sent the way `watch`
/// sends them on a terminal with bce (erased runs, cells skipped while within CIEDE2000 1.5 of what is shown,
/// after a run of frames) against the same last frame sent exactly, every cell as it is.
@Suite(.serialized, .tags(.xterm)) struct TerminalScreenshotTests {
    /// The stated bound: a colour on screen is within this of its cell's (README, "Watching in a terminal").
    static let maximumError = 1.5

    private func grids(count: Int) -> [TerminalGrid] {
        let composer = TerminalSceneComposer()
        return (0..<count).map { index in
            // Levels rising in small steps, as music moves them between two frames, to 0.9, 0.75 and 0.6.
            let level = Float(0.85 + 0.15 * Double(index) / Double(count - 1))
            let frame = ShowFrame(
                index: index, time: 1, levels: BandLevels(bass: 0.9 * level, mid: 0.75 * level, treble: 0.6 * level),
                state: .playing, title: "Screenshot"
            )
            let scene = composer.scene(frame: frame, columns: 160, rows: 48, style: Scene.Style())
            return composer.compose(scene, depth: .truecolor, overlays: TerminalOverlays())
        }
    }

    /// Shows `bytes` in a fresh xterm and returns the screen once it is drawn and still.
    private func show(_ bytes: [UInt8], in directory: TemporaryDirectory, name: String) throws -> DecodedPNG {
        let file = try directory.write(name, Data(Array("\u{1B}[?25l".utf8) + bytes))
        let xterm = try XtermDisplay(command: ["sh", "-c", "cat '\(file)'; exec sleep 600"])
        let shot = try xterm.settledScreenshot(in: directory) { shot in
            // Drawn once the bass light (left third) is lit.
            (0..<(shot.width / 3)).contains { x in shot.pixel(x, 340)[0] > 150 }
        }
        return try #require(shot, "xterm showed the frame")
    }

    @Test func erasedAndSkippedCellsStayWithinTheBoundOfTheExactFrame() throws {
        let directory = try TemporaryDirectory("screenshot")
        let frames = grids(count: 40)
        var exact = TerminalEncoder()
        var reference: [UInt8] = []
        exact.encode(frames.last!, exactly: true, into: &reference)
        var sent = TerminalEncoder(erasesRuns: true)
        var stream: [UInt8] = []
        for grid in frames { sent.encode(grid, into: &stream) }
        #expect(stream.contains(0x58), "runs went as erases (ESC [ n X)")

        let truth = try show(reference, in: directory, name: "exact")
        let drawn = try show(stream, in: directory, name: "sent")
        #expect(truth.width == drawn.width && truth.height == drawn.height)
        let cells = try #require(CellSamples(truth, columns: 160, rows: 48), "the terminal found on the screen")
        // Each half of each cell, sampled away from the glyph's edge: the colour that stands for that pixel.
        var largest = 0.0, differing = 0
        for row in 0..<(2 * 48) {
            for column in 0..<160 {
                let a = cells.color(truth, column: column, halfRow: row), b = cells.color(drawn, column: column, halfRow: row)
                guard a != b else { continue }
                differing += 1
                largest = max(largest, ColorDifference.ciede2000(a, b))
            }
        }
        #expect(largest <= Self.maximumError, "largest CIEDE2000 difference \(largest) over \(differing) pixels")
        // The tolerance was used: some cells kept a colour that only looks the same.
        #expect(differing > 0)
        for shot in [truth, drawn] { expectRoundLightsWithSoftRims(shot, cells) }
    }

    /// Where the 160×48 cells are on the screen: the terminal's background is the gradient, bluer than it is red,
    /// unlike the black root window around it; its top row holds no light.
    private struct CellSamples {
        var left = 0, top = 0, cellWidth = 0.0, cellHeight = 0.0

        init?(_ shot: DecodedPNG, columns: Int, rows: Int) {
            func bluish(_ x: Int, _ y: Int) -> Bool { let p = shot.pixel(x, y); return Int(p[2]) > Int(p[0]) + 8 }
            guard let top = (0..<shot.height).first(where: { bluish(40, $0) }),
                  let left = (0..<shot.width).first(where: { bluish($0, top + 2) }),
                  let right = (0..<shot.width).last(where: { bluish($0, top + 2) }),
                  let bottom = (0..<shot.height).last(where: { bluish(left + 2, $0) }), right > left, bottom > top
            else { return nil }
            self.left = left
            self.top = top
            cellWidth = Double(right - left + 1) / Double(columns)
            cellHeight = Double(bottom - top + 1) / Double(rows)
        }

        func color(_ shot: DecodedPNG, column: Int, halfRow: Int) -> RGBColor {
            let x = left + Int((Double(column) + 0.5) * cellWidth), y = top + Int((Double(halfRow) + 0.5) * cellHeight / 2)
            let p = shot.pixel(x, y)
            return RGBColor(red: p[0], green: p[1], blue: p[2])
        }
    }

    /// Each light is as many pixels wide as it is tall (half-block pixels: a column by half a row), and on a good
    /// part of its rows the outermost lit pixel is partly covered: a colour between the background beside it and
    /// the light three pixels further in (a disc without anti-aliasing has none).
    private func expectRoundLightsWithSoftRims(_ shot: DecodedPNG, _ cells: CellSamples) {
        for light in 0..<3 {
            var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1, rows = 0, softRows = 0
            // The lights end well above the toolbar on the last row.
            for y in 0..<(2 * 46) {
                let beside = cells.color(shot, column: 0, halfRow: y)
                let lit = (light * 160 / 3..<((light + 1) * 160 / 3)).filter {
                    ColorDifference.ciede2000(cells.color(shot, column: $0, halfRow: y), beside) > 3
                }
                guard let first = lit.first, let last = lit.last else { continue }
                minX = min(minX, first); maxX = max(maxX, last); minY = min(minY, y); maxY = max(maxY, y)
                guard last - first > 8 else { continue }
                rows += 1
                let edge = cells.color(shot, column: first, halfRow: y), inside = cells.color(shot, column: first + 3, halfRow: y)
                if ColorDifference.ciede2000(edge, inside) > 3 { softRows += 1 }
            }
            let width = maxX - minX + 1, height = maxY - minY + 1
            #expect(rows > 20, "light \(light) wide on \(rows) pixel rows")
            #expect(abs(width - height) <= 2, "light \(light): \(width) pixels wide, \(height) tall")
            #expect(softRows * 4 > rows, "light \(light): \(softRows) of \(rows) rows start with a partly covered pixel")
        }
    }
}
