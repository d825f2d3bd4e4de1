@testable import LightShowRender
import Testing

/// What "looks the same" is: CIEDE2000 ≤ 1.5, not a per-channel distance.
@Suite struct PerceptualToleranceTests {
    private func packed(_ r: UInt32, _ g: UInt32, _ b: UInt32) -> UInt32 { r << 16 | g << 8 | b }

    /// The answer of a fresh judge, which must give the same one again from the colours it has kept.
    private func looksSame(_ a: UInt32, _ b: UInt32) -> Bool {
        var judge = PerceptualTolerance()
        let first = judge.looksSame(a, b)
        #expect(judge.looksSame(b, a) == first, "the same answer from the kept colours")
        return first
    }

    @Test func midGreyWithinAndBeyond() {
        // ΔE 1.47 and 1.76.
        #expect(looksSame(packed(100, 100, 100), packed(102, 100, 98)))
        #expect(!looksSame(packed(100, 100, 100), packed(103, 100, 100)))
    }

    /// A bright saturated red hides a step of 6 units (ΔE 1.26), which 2/255 a channel would have sent.
    @Test func brightRedHidesALargerStep() {
        #expect(looksSame(packed(255, 0, 0), packed(249, 0, 0)))
    }

    /// A dark near-grey shows a step of one unit a channel (ΔE 2.35), which 2/255 a channel would have kept.
    @Test func darkGreyShowsAOneUnitStep() {
        #expect(!looksSame(packed(27, 24, 25), packed(26, 25, 24)))
    }

    /// Beyond the widest step a channel, colours are different without measuring: never the same, even where
    /// CIEDE2000 alone would call them close (a red step beside full green, ΔE about 0.2).
    @Test func aWideStepIsAlwaysSent() {
        #expect(!looksSame(packed(30, 255, 39), packed(12, 255, 38)))
    }

    @Test func theTerminalsOwnColourIsLikeNoOther() {
        #expect(!looksSame(TerminalCell.defaultColor, packed(255, 255, 255)))
        #expect(looksSame(TerminalCell.defaultColor, TerminalCell.defaultColor))
    }

    /// Colours that share a slot of the kept colours are each measured as themselves: a judge that has seen many
    /// colours answers as a fresh one does.
    @Test func keptColoursNeverStandForOthers() {
        var judge = PerceptualTolerance()
        var state: UInt32 = 99
        for _ in 0..<4_000 {
            state = state &* 1_664_525 &+ 1_013_904_223
            let a = state >> 8
            let b = packed(min(255, (a >> 16) + (state & 3)), a >> 8 & 0xFF, a & 0xFF)
            var fresh = PerceptualTolerance()
            #expect(judge.looksSame(a, b) == fresh.looksSame(a, b))
        }
    }
}
