import LightShowCore
import LightShowRender
import Testing

@Suite struct FrameRendererTests {
    /// A renderer reused over changing frames (which restores only the rows it painted last) paints exactly what a
    /// fresh renderer paints, with and without the toolbar, across a resize.
    @Test func reusedRendererMatchesAFreshOne() {
        let reused = FrameRenderer(fontPaths: [])
        for index in 0..<24 {
            let levels = BandLevels(bass: Float(index * 37 % 11) / 10, mid: Float(index * 53 % 7) / 6, treble: index % 3 == 0 ? 0 : 1)
            let state: PlaybackState = index >= 8 && index < 12 ? .stopped : .playing
            let frame = ShowFrame(index: index, time: Double(index), levels: levels, state: state, title: "Song")
            let width = index < 18 ? 96 : 64
            let scene = Scene(frame: frame, width: width, height: width / 2)
            #expect(reused.render(scene) == FrameRenderer(fontPaths: []).render(scene), "frame \(index)")
        }
    }
}
