import LightShowCore
import LightShowRender
import Testing

@Suite struct TerminalSceneComposerTests {
    private let style = Scene.Style()

    private func frame(_ index: Int, state: PlaybackState = .playing) -> ShowFrame {
        // Levels that jump around 0…1 from frame to frame.
        let levels = BandLevels(
            bass: Float(index * 37 % 11) / 10, mid: Float(index * 53 % 7) / 6, treble: index % 4 == 0 ? 0 : 0.9
        )
        return ShowFrame(index: index, time: Double(index) * 0.4, levels: levels, state: state, title: "Song \(index / 5)")
    }

    /// One composer reused over changing frames (which paints only the lights into last frame's cells) gives
    /// exactly the grid a fresh composer draws from scratch, at every colour depth, through overlays, a state
    /// change, a resize, a portrait screen (lights in a column) and a measured cell aspect.
    @Test(arguments: [TerminalColorDepth.truecolor, .palette256, .ansi16, .none])
    func reusedComposerMatchesAFreshOne(depth: TerminalColorDepth) {
        expectReusedComposerMatchesAFreshOne(depth: depth, style: style)
    }

    /// The same under gradients that change along a row too (horizontal, slanted), so a light's interior is not
    /// one colour per row.
    @Test(arguments: [0.0, 300.0])
    func reusedComposerMatchesAFreshOneUnderAGradientAlongTheRows(angle: Double) {
        var style = style
        style.background.angle = angle
        expectReusedComposerMatchesAFreshOne(depth: .truecolor, style: style)
    }

    private func expectReusedComposerMatchesAFreshOne(depth: TerminalColorDepth, style: Scene.Style) {
        let reused = TerminalSceneComposer()
        for index in 0..<60 {
            let (columns, rows, aspect): (Int, Int, Double) = switch index {
            case ..<30: (60, 20, 2)
            case ..<40: (48, 16, 2)
            case ..<50: (26, 40, 2)
            default: (70, 22, 2.3)
            }
            let state: PlaybackState = index >= 12 && index < 16 ? .stopped : .playing
            let overlays = index >= 20 && index < 24
                ? TerminalOverlays(help: .light(.mid)) : TerminalOverlays()
            let shown = frame(index, state: state)
            let scene = reused.scene(frame: shown, columns: columns, rows: rows, cellAspect: aspect, style: style)
            #expect(scene == TerminalSceneComposer.scene(frame: shown, columns: columns, rows: rows, cellAspect: aspect, style: style))
            let grid = reused.compose(scene, depth: depth, overlays: overlays)
            let fresh = TerminalSceneComposer().compose(scene, depth: depth, overlays: overlays)
            #expect(grid == fresh, "frame \(index)")
        }
    }

    /// A terminal may report up to 65535×65535 cells; only `maximumColumns`×`maximumRows` of them are drawn, for
    /// the scene and for the too-small message alike.
    @Test func aHugeScreenIsDrawnOnlyUpToTheMaximumArea() {
        let composer = TerminalSceneComposer()
        let scene = composer.scene(frame: frame(3), columns: 4000, rows: 2000, style: style)
        let grid = composer.compose(scene, depth: .truecolor, overlays: TerminalOverlays())
        #expect(grid.columns == TerminalSceneComposer.maximumColumns && grid.rows == TerminalSceneComposer.maximumRows)
        let narrow = TerminalSceneComposer.tooSmall(columns: 10, rows: 65_535, depth: .truecolor)
        #expect(narrow.columns == 10 && narrow.rows == TerminalSceneComposer.maximumRows)
        #expect(TerminalSceneComposer.drawingArea(columns: 65_535, rows: 65_535) == (1000, 500))
    }

    /// The toolbar's cells on a 40-column screen showing `title` (its text starts in column 3, the elapsed time
    /// `0:00` takes columns 35…38), as characters, with `covered` cells as "_".
    private func toolbar(title: String) -> String {
        let composer = TerminalSceneComposer()
        let shown = ShowFrame(index: 0, time: 0, levels: .zero, state: .playing, title: title)
        let grid = composer.compose(composer.scene(frame: shown, columns: 40, rows: 12, style: style), depth: .none, overlays: TerminalOverlays())
        let playing = (0..<grid.rows).filter { row in (0..<grid.columns).contains { grid[$0, row].scalar == 0x25B6 } }
        let row: Int = playing.last ?? 0
        var text = String.UnicodeScalarView()
        for column in 0..<grid.columns {
            let value = grid[column, row].scalar
            text.append(value == TerminalCell.covered ? "_" : (Unicode.Scalar(value) ?? "?"))
        }
        return String(text)
    }

    /// Wide characters take two cells each, and a title too wide for the 31 cells it has is cut by cells.
    @Test func aCJKTitleIsLaidOutTwoCellsACharacter() {
        #expect(toolbar(title: "漢字の曲") == " ▶ 漢_字_の_曲_" + String(repeating: " ", count: 24) + "0:00 ")
        // 17 characters, 34 cells: 15 of them and the ellipsis.
        #expect(toolbar(title: "漢字のタイトルがとても長い曲名です") == " ▶ 漢_字_の_タ_イ_ト_ル_が_と_て_も_長_い_曲_名_… 0:00 ")
        // An odd number of cells left: the wide character that would end in the elapsed time's gap is left out.
        #expect(toolbar(title: "a漢字のタイトルがとても長い曲名です") == " ▶ a漢_字_の_タ_イ_ト_ル_が_と_て_も_長_い_曲_…  0:00 ")
    }

    /// A decomposed accent (e + U+0301) is one cell, composed; it no longer pushes the rest along.
    @Test func aDecomposedAccentTakesOneCell() {
        #expect(toolbar(title: "Cafe\u{301} Olé") == " ▶ Café Olé" + String(repeating: " ", count: 24) + "0:00 ")
    }

    /// An emoji takes two cells; its variation selector and the joiners of a sequence take none.
    @Test func anEmojiTitleIsLaidOutByWidth() {
        #expect(toolbar(title: "🎵 Song") == " ▶ 🎵_ Song" + String(repeating: " ", count: 25) + "0:00 ")
        #expect(toolbar(title: "❤\u{FE0F}👩\u{200D}🎤!") == " ▶ ❤👩_!" + String(repeating: " ", count: 28) + "0:00 ")
    }

    /// A wide glyph never goes into the last column a text may use (at the screen's edge the terminal would wrap
    /// it onto the next line).
    @Test func aWideGlyphNeverTakesTheLastColumn() {
        var grid = TerminalGrid(columns: 5, rows: 1, depth: .none)
        #expect(grid.put("ab漢", column: 2, row: 0, foreground: .white, background: .black) == 4)
        #expect(grid[4, 0] == .blank)
    }
}
