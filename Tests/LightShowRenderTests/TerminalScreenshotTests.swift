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
        var largest = 0.0, differing = 0
        for index in stride(from: 0, to: min(truth.rgb.count, drawn.rgb.count), by: 3) where
            truth.rgb[index..<(index + 3)] != drawn.rgb[index..<(index + 3)] {
            differing += 1
            largest = max(largest, ColorDifference.ciede2000(color(truth.rgb, index), color(drawn.rgb, index)))
        }
        #expect(largest <= Self.maximumError, "largest CIEDE2000 difference \(largest) over \(differing) pixels")
        // The tolerance was used: some cells kept a colour that only looks the same.
        #expect(differing > 0)
        for shot in [truth, drawn] { expectRoundLightsWithSoftRims(shot) }
    }

    private func color(_ rgb: [UInt8], _ index: Int) -> RGBColor {
        RGBColor(red: rgb[index], green: rgb[index + 1], blue: rgb[index + 2])
    }

    /// Each light is as wide as it is tall, and on most rows its outermost pixel is partly covered: a colour
    /// between the background beside it and the light a few pixels further in.
    private func expectRoundLightsWithSoftRims(_ shot: DecodedPNG) {
        let third = shot.width / 3
        // The terminal's first column, inside the window and outside every light, shows the background: a
        // gradient with more blue than red, unlike the black root window below. The toolbar (the last rows,
        // with its text) is left out: the lights end well above it.
        let background: (Int) -> RGBColor = { y in
            let p = shot.pixel(6, y)
            return RGBColor(red: p[0], green: p[1], blue: p[2])
        }
        let bottom = (0..<shot.height).last { background($0).blue > background($0).red } ?? 0
        for light in 0..<3 {
            var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1, rows = 0, softRows = 0
            for y in 4..<max(4, bottom - 40) {
                let beside = background(y)
                let lit = (light * third..<((light + 1) * third)).filter { x in
                    let p = shot.pixel(x, y)
                    return ColorDifference.ciede2000(RGBColor(red: p[0], green: p[1], blue: p[2]), beside) > 3
                }
                guard let first = lit.first, let last = lit.last else { continue }
                minX = min(minX, first); maxX = max(maxX, last); minY = min(minY, y); maxY = max(maxY, y)
                // Rims are judged where the light is wide enough to have an inside 21 px (3 pixels) in.
                guard last - first > 60 else { continue }
                rows += 1
                let edge = shot.pixel(first, y), inside = shot.pixel(first + 21, y)
                let edgeColor = RGBColor(red: edge[0], green: edge[1], blue: edge[2])
                if ColorDifference.ciede2000(edgeColor, RGBColor(red: inside[0], green: inside[1], blue: inside[2])) > 3 {
                    softRows += 1
                }
            }
            let width = maxX - minX + 1, height = maxY - minY + 1
            #expect(rows > 100, "light \(light) wide on \(rows) pixel rows")
            #expect(abs(width - height) <= 14, "light \(light): \(width) px wide, \(height) px tall")
            #expect(softRows * 2 > rows, "light \(light): \(softRows) of \(rows) rows start with a partly covered pixel")
        }
    }
}
