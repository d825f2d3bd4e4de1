import LightShowCore
import Testing

@Suite struct FrequencyRangeTests {
    @Test func clampsOntoTheAxisAndOrdersKnobs() {
        let range = FrequencyRange(lower: 30_000, upper: 5)
        #expect(range.lower == 20)
        #expect(range.upper == 20_000)
    }

    @Test func knobsCannotCross() {
        var range = FrequencyRange(lower: 100, upper: 200)
        range.setLower(500)
        #expect(range.lower == 200)
        range.setUpper(50)
        #expect(range.upper == 200)
    }
}
