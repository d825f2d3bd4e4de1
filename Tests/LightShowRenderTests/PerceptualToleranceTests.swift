@testable import LightShowRender
import Testing

/// What "looks the same" is: CIEDE2000 ≤ 1.5, not a per-channel distance.
@Suite struct PerceptualToleranceTests {
    private func packed(_ r: UInt32, _ g: UInt32, _ b: UInt32) -> UInt32 { r << 16 | g << 8 | b }

    @Test func midGreyWithinAndBeyond() {
        // ΔE 1.47 and 1.76.
        #expect(PerceptualTolerance.looksSame(packed(100, 100, 100), packed(102, 100, 98)))
        #expect(!PerceptualTolerance.looksSame(packed(100, 100, 100), packed(103, 100, 100)))
    }

    /// A bright saturated red hides a step of 6 units (ΔE 1.26), which 2/255 a channel would have sent.
    @Test func brightRedHidesALargerStep() {
        #expect(PerceptualTolerance.looksSame(packed(255, 0, 0), packed(249, 0, 0)))
    }

    /// A dark near-grey shows a step of one unit a channel (ΔE 2.35), which 2/255 a channel would have kept.
    @Test func darkGreyShowsAOneUnitStep() {
        #expect(!PerceptualTolerance.looksSame(packed(27, 24, 25), packed(26, 25, 24)))
    }

    /// Beyond the widest step a channel, colours are different without measuring: never the same, even where
    /// CIEDE2000 alone would call them close (a red step beside full green, ΔE about 0.2).
    @Test func aWideStepIsAlwaysSent() {
        #expect(!PerceptualTolerance.looksSame(packed(30, 255, 39), packed(12, 255, 38)))
    }

    @Test func theTerminalsOwnColourIsLikeNoOther() {
        #expect(!PerceptualTolerance.looksSame(TerminalCell.defaultColor, packed(255, 255, 255)))
        #expect(PerceptualTolerance.looksSame(TerminalCell.defaultColor, TerminalCell.defaultColor))
    }
}
