import LightShowCore
import Testing

@Suite struct MasterBrightnessTests {
    @Test func scalesEveryChannelAndClampsTheFactor() {
        let color = RGBColor(red: 255, green: 128, blue: 1)
        #expect(color.scaled(by: 0.5) == RGBColor(red: 128, green: 64, blue: 1))
        #expect(color.scaled(by: 0) == RGBColor(red: 0, green: 0, blue: 0))
        #expect(color.scaled(by: 7) == color)
        #expect(color.scaled(by: .nan) == RGBColor(red: 0, green: 0, blue: 0))
    }

    @Test func theSceneStyleCarriesTheDimmedColours() {
        var configuration = Configuration()
        configuration.scene.brightness = 0.5
        let style = Scene.Style(configuration)
        for band in Band.allCases {
            #expect(style.bands[band].color == configuration.bands[band].color.scaled(by: 0.5))
            #expect(style.bands[band].range == configuration.bands[band].range)
        }
        #expect(style.background.from == configuration.background.from.scaled(by: 0.5))
        #expect(Scene.Style(Configuration()).bands == Configuration().bands, "full brightness leaves the colours alone")
    }
}
