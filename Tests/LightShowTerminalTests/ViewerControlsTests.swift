import LightShowCore
import LightShowTerminal
import Testing

@Suite struct ViewerControlsTests {
    @Test func playbackKeysBecomeCommands() {
        var controls = ViewerControls(bands: BandsSettings())
        let r1 = controls.handle(.character(" "))
        #expect(r1 == .command(.toggle))
        let r2 = controls.handle(.character("p"))
        #expect(r2 == .command(.play))
        let r3 = controls.handle(.character("s"))
        #expect(r3 == .command(.stop))
        let r4 = controls.handle(.character("q"))
        #expect(r4 == .quit)
    }

    @Test func helpTakesAnyKeyAndEscCloses() {
        var controls = ViewerControls(bands: BandsSettings(), showHelp: true)
        let r5 = controls.handle(.character("q"))
        #expect(r5 == .none)
        #expect(controls.help.step == .light(.mid))
        let r6 = controls.handle(.escape)
        #expect(r6 == .none)
        #expect(!controls.help.isOpen)
    }

    @Test func tuningMovesTheSelectedBand() {
        var controls = ViewerControls(bands: BandsSettings())
        _ = controls.handle(.character("t"))
        _ = controls.handle(.character("2"))
        _ = controls.handle(.tab)
        guard case .bandsChanged(let bands) = controls.handle(.left) else {
            Issue.record("no band change")
            return
        }
        #expect(bands.mid.range.upper == 3150)
        #expect(controls.overlays.tuning?.selected == .mid)
    }
}
