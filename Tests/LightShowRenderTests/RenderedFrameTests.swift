import Foundation
import LightShowCore
import LightShowRender
import Testing
import TestSupport

/// Renders scenes, encodes them with our PNG encoder, and checks pixels after decoding with libpng.
@Suite struct RenderedFrameTests {
    private func renderAndDecode(_ frame: ShowFrame, width: Int, height: Int, style: Scene.Style = Scene.Style()) throws -> (Scene, DecodedPNG) {
        let scene = Scene(frame: frame, width: width, height: height, style: style)
        let image = FrameRenderer().render(scene)
        let bytes = try PNGEncoder().encode(image)
        let dir = try TemporaryDirectory("render")
        let path = try dir.write("frame.png", Data(bytes))
        let decoded = try DecodedPNG(path: path)
        #expect(decoded.width == width && decoded.height == height)
        #expect(decoded.rgb == image.pixels, "decoded pixels equal the framebuffer")
        return (scene, decoded)
    }

    private func rgb(_ color: RGBColor) -> [UInt8] { [color.red, color.green, color.blue] }

    private func close(_ a: [UInt8], _ b: [UInt8], tolerance: Int = 1) -> Bool {
        zip(a, b).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    }

    @Test func lightCentresAreTheirColourAtTheirLevelOverTheBackground() throws {
        let levels = BandLevels(bass: 0.8, mid: 0.35, treble: 1)
        let frame = ShowFrame(index: 0, time: 12, levels: levels, state: .playing, title: "Centres")
        let (scene, png) = try renderAndDecode(frame, width: 1280, height: 720)
        for light in scene.lights {
            let x = Int(light.circle.center.x), y = Int(light.circle.center.y)
            let background = scene.background.color(x: Double(x), y: Double(y), width: 1280, height: 720)
            let expected = light.color.composited(over: background, alpha: Double(levels[light.band]))
            #expect(close(png.pixel(x, y), rgb(expected)), "\(light.band) centre \(png.pixel(x, y)) vs \(expected)")
        }
        // Level 1 is the pure colour; the edge is anti-aliased (some pixel strictly between colour and background).
        let treble = scene.lights[2].circle
        #expect(png.pixel(Int(treble.center.x), Int(treble.center.y)) == rgb(scene.lights[2].color))
        let edgeY = Int(treble.center.y)
        let row = (Int(treble.center.x + treble.radiusX) - 3...Int(treble.center.x + treble.radiusX) + 3).map { png.pixel($0, edgeY)[2] }
        let bg = scene.background.color(x: 0, y: Double(edgeY), width: 1280, height: 720).blue
        #expect(row.contains { $0 != 255 && $0 != bg }, "anti-aliased edge: \(row)")
    }

    @Test(arguments: [0.0, 45, 270, 315])
    func cornersMatchTheGradient(angle: Double) throws {
        var style = Scene.Style()
        style.background.from = RGBColor(red: 0, green: 40, blue: 200)
        style.background.to = RGBColor(red: 250, green: 120, blue: 10)
        style.background.angle = angle
        let frame = ShowFrame(index: 0, time: 0, levels: .zero, state: .stopped, title: "")
        let (scene, png) = try renderAndDecode(frame, width: 640, height: 360, style: style)
        for (x, y) in [(0, 0), (639, 0), (0, 359), (639, 359)] {
            let t = scene.background.t(x: Double(x), y: Double(y), width: 640, height: 360)
            let expected = style.background.from.mixed(with: style.background.to, fraction: t)
            #expect(png.pixel(x, y) == rgb(expected), "corner (\(x),\(y)) at \(angle)°")
        }
        if angle == 270 {
            #expect(png.pixel(0, 0) == rgb(style.background.from))
            #expect(close(png.pixel(0, 359), rgb(style.background.to), tolerance: 1))
        }
    }

    @Test func toolbarHasTextWhilePlayingAndIsBackgroundWhileStopped() throws {
        let levels = BandLevels(bass: 0.5, mid: 0.5, treble: 0.5)
        for state in [PlaybackState.playing, .paused] {
            let (scene, png) = try renderAndDecode(ShowFrame(index: 0, time: 83, levels: levels, state: state, title: "Strip Title"), width: 1280, height: 720)
            let strip = try #require(scene.toolbar?.rect)
            var bright = 0
            for y in Int(strip.y)..<720 { for x in 0..<1280 where png.pixel(x, y).allSatisfy({ $0 > 200 }) { bright += 1 } }
            #expect(bright > 200, "\(state): \(bright) text pixels in the strip")
            // Title text sits left of centre, the time at the right end.
            let rightQuarter = (Int(strip.y)..<720).reduce(0) { sum, y in sum + (960..<1280).filter { png.pixel($0, y)[0] > 200 }.count }
            #expect(rightQuarter > 20, "elapsed time drawn at the right")
        }
        let (stopped, png) = try renderAndDecode(ShowFrame(index: 0, time: 83, levels: levels, state: .stopped, title: "Strip Title"), width: 1280, height: 720)
        #expect(stopped.toolbar == nil)
        // Below the lights (inside the bottom margin), the strip's rows are pure background.
        let lowestLight = stopped.lights.map { $0.circle.center.y + $0.circle.radiusY }.max() ?? 0
        for y in Int(lowestLight.rounded(.up)) + 1..<720 {
            for x in stride(from: 0, to: 1280, by: 7) {
                let expected = stopped.background.color(x: Double(x), y: Double(y), width: 1280, height: 720)
                #expect(png.pixel(x, y) == rgb(expected))
            }
        }
    }

    @Test func portraitStacksTheLightsVertically() throws {
        let frame = ShowFrame(index: 0, time: 0, levels: BandLevels(bass: 1, mid: 1, treble: 1), state: .playing, title: "Tall")
        let (scene, png) = try renderAndDecode(frame, width: 360, height: 640)
        let centres = scene.lights.map { (Int($0.circle.center.x), Int($0.circle.center.y)) }
        #expect(Set(centres.map(\.0)).count == 1, "one column")
        #expect(centres[0].1 < centres[1].1 && centres[1].1 < centres[2].1, "bass above mid above treble")
        for (light, centre) in zip(scene.lights, centres) {
            #expect(png.pixel(centre.0, centre.1) == rgb(light.color))
        }
        // Between two lights, on the column's axis, is background.
        let gapY = (Int(scene.lights[0].circle.center.y + scene.lights[0].circle.radiusY) + Int(scene.lights[1].circle.center.y - scene.lights[1].circle.radiusY)) / 2
        let expected = scene.background.color(x: Double(centres[0].0), y: Double(gapY), width: 360, height: 640)
        #expect(png.pixel(centres[0].0, gapY) == rgb(expected))
    }

    @Test func renderingIsDeterministicAndWorksAtOddSizes() throws {
        let frame = ShowFrame(index: 0, time: 3, levels: BandLevels(bass: 0.25, mid: 0.5, treble: 0.75), state: .paused, title: "Same ▶ again")
        for (width, height) in [(1280, 720), (2, 2), (64, 36), (7680, 40)] {
            let scene = Scene(frame: frame, width: width, height: height)
            let a = try PNGEncoder().encode(FrameRenderer().render(scene))
            let b = try PNGEncoder().encode(FrameRenderer().render(scene))
            #expect(a == b)
        }
    }
}
