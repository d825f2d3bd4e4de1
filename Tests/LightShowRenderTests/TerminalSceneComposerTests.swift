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

    /// One composer reused over changing frames (which redraws only the rows under the lights) gives exactly the
    /// grid a fresh composer draws from scratch, through overlays, a state change and a resize.
    @Test func reusedComposerMatchesAFreshOne() {
        let reused = TerminalSceneComposer()
        for index in 0..<40 {
            let columns = index < 30 ? 60 : 48, rows = index < 30 ? 20 : 16
            let state: PlaybackState = index >= 12 && index < 16 ? .stopped : .playing
            let overlays = index >= 20 && index < 24
                ? TerminalOverlays(help: .light(.mid)) : TerminalOverlays()
            let shown = frame(index, state: state)
            let scene = reused.scene(frame: shown, columns: columns, rows: rows, style: style)
            #expect(scene == TerminalSceneComposer.scene(frame: shown, columns: columns, rows: rows, style: style))
            let grid = reused.compose(scene, depth: .truecolor, overlays: overlays)
            let fresh = TerminalSceneComposer().compose(scene, depth: .truecolor, overlays: overlays)
            #expect(grid == fresh, "frame \(index)")
        }
    }
}
