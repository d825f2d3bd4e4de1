import LightShowAnalysis
import LightShowCore
import Testing

/// WCAG's general flash: a change in relative luminance of 10% of full or more, the darker state below 0.8.
@Suite struct FlashContrastTests {
    @Test func relativeLuminanceOfKnownColours() {
        #expect(RGBColor.white.relativeLuminance == 1)
        #expect(RGBColor.black.relativeLuminance == 0)
        #expect(abs(RGBColor(red: 255, green: 0, blue: 0).relativeLuminance - 0.2126) < 1e-9)
        #expect(abs(RGBColor(red: 0, green: 255, blue: 0).relativeLuminance - 0.7152) < 1e-9)
        #expect(abs(RGBColor(red: 0, green: 0, blue: 255).relativeLuminance - 0.0722) < 1e-9)
        // Mid grey: ((128/255 + 0.055) / 1.055)^2.4.
        #expect(abs(RGBColor(red: 128, green: 128, blue: 128).relativeLuminance - 0.21586) < 1e-5)
    }

    @Test func whiteOverBlackFlashesFromAbout35PercentAlpha() {
        let contrast = FlashContrast(color: .white, backgrounds: [.black])
        // White at half alpha over black is sRGB 0.5, luminance 0.214.
        #expect(abs(contrast.flashingChange(from: 0, to: 0.5) - 0.21404) < 1e-5)
        #expect(contrast.isFlash(from: 0, to: 0.5))
        #expect(!contrast.isFlash(from: 0, to: 0.3))
        // Luminance 0.1 is sRGB 1.055 · 0.1^(1/2.4) − 0.055 = 0.3492.
        let lift = contrast.largestLowContrastLift(from: 0, upTo: 1)
        #expect(abs(lift - 0.3492) < 1e-3)
        #expect(!contrast.isFlash(from: 0, to: lift))
        #expect(contrast.isFlash(from: 0, to: lift + 2e-3))
        // A smaller lift than asked for is kept whole.
        #expect(contrast.largestLowContrastLift(from: 0, upTo: 0.2) == 0.2)
    }

    /// The default lights over the default background (#101020 → #302050): blue and red are dim colours, so they
    /// rise much further than a tenth before flashing; green is bright and rises least.
    @Test func theDefaultLightsOverTheDefaultBackground() {
        let contrasts = FlashContrast.perBand(BandsSettings(), background: BackgroundSettings())
        let blue = contrasts[2], green = contrasts[1], red = contrasts[0]
        // Full blue (#0A84FF, luminance 0.238) over #101020 (0.00585).
        #expect(abs(blue.flashingChange(from: 0, to: 1) - 0.2320) < 1e-4)
        #expect(abs(blue.largestLowContrastLift(from: 0, upTo: 1) - 0.634) < 2e-3)
        #expect(abs(green.largestLowContrastLift(from: 0, upTo: 1) - 0.461) < 2e-3)
        #expect(abs(red.largestLowContrastLift(from: 0, upTo: 1) - 0.638) < 2e-3)
        // From half alpha the same change in luminance takes a smaller lift (sRGB is not linear light).
        #expect(abs(blue.largestLowContrastLift(from: 0.5, upTo: 1) - 0.337) < 2e-3)
    }

    @Test func noFlashWhereTheDarkerStateIsAtLeastPointEight() {
        // #F0F0F0 has luminance 0.871: white over it never flashes, however far it rises.
        let light = FlashContrast(color: .white, backgrounds: [RGBColor(red: 0xF0, green: 0xF0, blue: 0xF0)])
        #expect(light.flashingChange(from: 0, to: 1) == 0)
        #expect(light.largestLowContrastLift(from: 0, upTo: 1) == 1)
        // Over black, white from 0.95 alpha (luminance 0.89) to full changes by 0.11 but is no flash; from 0.6
        // (0.32) it is.
        let overBlack = FlashContrast(color: .white, backgrounds: [.black])
        #expect(abs(overBlack.luminance(alpha: 0.95, over: .black) - 0.8900) < 1e-3)
        #expect(!overBlack.isFlash(from: 0.95, to: 1))
        #expect(overBlack.isFlash(from: 0.6, to: 1))
    }

    @Test func theLargestChangeOverTheGradientCounts() {
        let overBlack = FlashContrast(color: .white, backgrounds: [.black])
        let overGradient = FlashContrast(color: .white, backgrounds: [RGBColor(red: 200, green: 200, blue: 200), .black])
        #expect(overGradient.flashingChange(from: 0, to: 0.5) == overBlack.flashingChange(from: 0, to: 0.5))
    }
}
