import Testing
@testable import LightShowConfig

@Suite struct KeySuggestionTests {
    @Test func editDistance() {
        #expect(KeySuggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(KeySuggestion.editDistance(Array(""), Array("abc")) == 3)
        #expect(KeySuggestion.editDistance(Array("upper"), Array("upper")) == 0)
    }

    @Test func suggestsCloseKeysOnly() {
        let keys = ["lower", "upper", "color"]
        #expect(KeySuggestion.closest(to: "uper", among: keys) == "upper")
        #expect(KeySuggestion.closest(to: "colour", among: keys) == "color")
        #expect(KeySuggestion.closest(to: "Lower", among: keys) == "lower")
        #expect(KeySuggestion.closest(to: "brightness", among: keys) == nil)
        #expect(KeySuggestion.closest(to: "idle", among: ["idle_after", "fade_out"]) == "idle_after")
        #expect(KeySuggestion.closest(to: "x", among: []) == nil)
    }
}
