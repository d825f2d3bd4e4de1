import LightShowCore
import Testing

@Suite struct SceneLayoutTests {
    private func expectClose(_ a: Double, _ b: Double, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(abs(a - b) < 1e-6, "\(what): \(a) ≠ \(b)", sourceLocation: sourceLocation)
    }

    @Test func landscapeRowWithToolbar() {
        // margin 0.04·720 = 28.8; toolbar round(0.08·720) = 58; cell 388.27 × 604.4 → radius 194.13.
        let layout = SceneLayout(width: 1280, height: 720, toolbarVisible: true)
        #expect(layout.orientation == .landscape)
        #expect(layout.toolbar == SceneRect(x: 0, y: 662, width: 1280, height: 58))
        let cellWidth = (1280 - 4 * 28.8) / 3
        for (index, light) in layout.lights.enumerated() {
            expectClose(light.radiusX, cellWidth / 2, "radius")
            expectClose(light.radiusY, cellWidth / 2, "radius")
            expectClose(light.center.x, 28.8 + Double(index) * (cellWidth + 28.8) + cellWidth / 2, "x")
            expectClose(light.center.y, 28.8 + (662 - 57.6) / 2, "y")
        }
    }

    @Test func landscapeCollapsedToolbarGivesTheLightsItsRoom() {
        let shown = SceneLayout(width: 1280, height: 720, toolbarVisible: true)
        let collapsed = SceneLayout(width: 1280, height: 720, toolbarVisible: false)
        #expect(collapsed.toolbar.height == 0)
        #expect(collapsed.content.height == 720)
        expectClose(collapsed.lights[0].center.y, 360, "centred in the full height")
        #expect(collapsed.lights[0].center.y > shown.lights[0].center.y)
    }

    @Test func portraitColumn() {
        // margin 28.8; toolbar round(0.08·1280) = 102; cell 662.4 × 354.27 → radius 177.13.
        let layout = SceneLayout(width: 720, height: 1280, toolbarVisible: true)
        #expect(layout.orientation == .portrait)
        #expect(layout.toolbar.height == 102)
        let cellHeight = (1178 - 4 * 28.8) / 3
        for (index, light) in layout.lights.enumerated() {
            expectClose(light.radiusY, cellHeight / 2, "radius")
            expectClose(light.center.x, 360, "x")
            expectClose(light.center.y, 28.8 + Double(index) * (cellHeight + 28.8) + cellHeight / 2, "y")
        }
        let collapsed = SceneLayout(width: 720, height: 1280, toolbarVisible: false)
        expectClose(collapsed.lights[0].radiusY, (1280 - 4 * 28.8) / 6, "collapsed radius")
        #expect(collapsed.lights[2].center.y > layout.lights[2].center.y)
    }

    @Test func squareIsARow() {
        // margin 32; toolbar 64; cells 224 × 672 → radius 112 at x 144, 400, 656, y 368.
        let layout = SceneLayout(width: 800, height: 800, toolbarVisible: true)
        #expect(layout.orientation == .landscape)
        #expect(layout.lights.map(\.center.x) == [144, 400, 656])
        #expect(layout.lights.allSatisfy { $0.center.y == 368 && $0.radiusX == 112 })
        let collapsed = SceneLayout(width: 800, height: 800, toolbarVisible: false)
        #expect(collapsed.lights.allSatisfy { $0.center.y == 400 && $0.radiusX == 112 })
    }

    @Test(arguments: [1.0, 0.5, 2.0])
    func circlesStayRoundAfterResize(pixelAspect: Double) {
        let sizes = [(1280, 720), (640, 720), (333, 1000), (1920, 200), (101, 99), (40, 24), (2, 2)]
        for (width, height) in sizes {
            for toolbar in [true, false] {
                let layout = SceneLayout(width: width, height: height, pixelAspect: pixelAspect, toolbarVisible: toolbar)
                for light in layout.lights {
                    // Round on screen: the physical radii agree.
                    expectClose(light.radiusX * pixelAspect, light.radiusY, "round at \(width)×\(height)")
                    // Inside the content area.
                    #expect(light.center.x - light.radiusX >= -1e-9 && light.center.x + light.radiusX <= Double(width) + 1e-9)
                    #expect(light.center.y - light.radiusY >= -1e-9 && light.center.y + light.radiusY <= layout.content.maxY + 1e-9)
                }
            }
        }
    }

    @Test func sceneTakesColoursLevelsAndToolbarFromTheFrame() {
        var style = Scene.Style()
        style.bands.mid.color = RGBColor(red: 1, green: 2, blue: 3)
        let frame = ShowFrame(index: 3, time: 65.4, levels: BandLevels(bass: 0.25, mid: 2, treble: -1), state: .paused, title: "Song")
        let scene = Scene(frame: frame, width: 1280, height: 720, style: style)
        #expect(scene.lights.map(\.level) == [0.25, 1, 0])
        #expect(scene.lights[1].color == RGBColor(red: 1, green: 2, blue: 3))
        #expect(scene.toolbar?.elapsedText == "1:05")
        #expect(scene.toolbar?.state == .paused)
        let stopped = Scene(frame: ShowFrame(index: 0, time: 0, levels: .zero, state: .stopped, title: ""), width: 1280, height: 720)
        #expect(stopped.toolbar == nil)
        #expect(Scene.formatElapsed(3725) == "1:02:05")
    }
}
