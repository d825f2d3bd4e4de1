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
}
