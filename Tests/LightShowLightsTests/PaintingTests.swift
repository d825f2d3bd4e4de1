import LightShowCore
import Testing
@testable import LightShowLights

/// Layouts, gamma and brightness: what each output puts on the wire for a scene.
@Suite struct PaintingTests {
    static let red = RGBColor(red: 255, green: 0, blue: 0)
    static let green = RGBColor(red: 0, green: 255, blue: 0)
    static let blue = RGBColor(red: 0, green: 0, blue: 255)

    func scene(_ bass: Float, _ mid: Float, _ treble: Float, background: Double = 1) -> LightScene {
        LightScene(levels: BandLevels(bass: bass, mid: mid, treble: treble), colors: [Self.red, Self.green, Self.blue], background: background)
    }

    @Test func dmxFixturesAreNineChannelsFromStart() {
        var settings = LightOutputSettings(protocol: .sacn)
        settings.start = 4
        settings.gamma = 1
        let bytes = LightPainter(settings: settings, background: BackgroundSettings()).paint(scene(1, 0.5, 0))
        #expect(bytes == [0, 0, 0, 255, 0, 0, 0, 128, 0, 0, 0, 0])
    }

    @Test func ddpFixturesAreThreePixelsPlacedByOffset() {
        var settings = LightOutputSettings(protocol: .ddp)
        settings.layout = .fixtures
        settings.start = 11
        settings.gamma = 1
        let painter = LightPainter(settings: settings, background: BackgroundSettings())
        #expect(painter.paint(scene(0, 1, 1)) == [0, 0, 0, 0, 255, 0, 0, 0, 255])
        #expect(painter.dataOffset == 30)
    }

    @Test func gammaMakesAlphaLookLinearAndBrightnessCaps() {
        let curve = ChannelCurve(gamma: 2.2, brightness: 1)
        #expect(curve[0] == 0)
        #expect(curve[255] == 255)
        #expect(curve[128] == 56) // (128/255)^2.2 · 255 = 55.9
        let capped = ChannelCurve(gamma: 1, brightness: 0.5)
        #expect(capped[255] == 128)
        #expect(capped[100] == 50)
        let hostile = ChannelCurve(gamma: .nan, brightness: .infinity)
        #expect(hostile[200] == 0)
    }

    @Test func stripSegmentsSplitTheRemainderFromTheFirst() {
        #expect(StripSegments(pixels: 150).ranges == [0..<50, 50..<100, 100..<150])
        #expect(StripSegments(pixels: 100).ranges == [0..<34, 34..<67, 67..<100])
        #expect(StripSegments(pixels: 4).ranges == [0..<2, 2..<3, 3..<4])
    }

    @Test func stripShowsEachBandOnItsSegment() {
        var settings = LightOutputSettings(protocol: .ddp)
        settings.pixels = 6
        settings.gamma = 1
        let bytes = LightPainter(settings: settings, background: BackgroundSettings()).paint(scene(1, 0, 0.2))
        #expect(bytes == [255, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 51, 0, 0, 51])
    }

    @Test func stripBackgroundIsTheGradientBaseAndFadesWithTheScene() {
        var settings = LightOutputSettings(protocol: .ddp)
        settings.pixels = 3
        settings.gamma = 1
        settings.background = true
        var background = BackgroundSettings()
        background.from = RGBColor(red: 0, green: 0, blue: 0)
        background.to = RGBColor(red: 0, green: 0, blue: 200)
        background.angle = 0 // runs left to right along the strip
        let painter = LightPainter(settings: settings, background: background)
        // Pixel centres at x = 1/6, 3/6, 5/6 of the gradient.
        #expect(painter.paint(scene(0, 0, 0)) == [0, 0, 33, 0, 0, 100, 0, 0, 167])
        // Halved after rounding: 167 · 0.5 = 83.5 → 84.
        #expect(painter.paint(scene(0, 0, 0, background: 0.5)) == [0, 0, 17, 0, 0, 50, 0, 0, 84])
        // A band at full level covers the base.
        #expect(painter.paint(scene(1, 0, 0)).prefix(3) == [255, 0, 0])
        #expect(painter.paint(scene(0, 0, 0, background: 0)) == [UInt8](repeating: 0, count: 9))
    }

    @Test func hostileLevelsAreClamped() {
        var settings = LightOutputSettings(protocol: .artnet)
        settings.gamma = 1
        let painter = LightPainter(settings: settings, background: BackgroundSettings())
        let bytes = painter.paint(scene(.nan, 7, -3))
        #expect(bytes == [0, 0, 0, 0, 255, 0, 0, 0, 0])
    }

    @Test func defaultGammaDependsOnWhatIsDriven() {
        #expect(LightOutputSettings(protocol: .ddp).gamma == 2.2)
        #expect(LightOutputSettings(protocol: .sacn).gamma == 1.0)
        #expect(LightOutputSettings.defaultGamma(.artnet, .strip) == 2.2)
    }
}
