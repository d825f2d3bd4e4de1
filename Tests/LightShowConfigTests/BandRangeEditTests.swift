import LightShowConfig
import LightShowCore
import Testing

/// `set-band`'s edit says what a config file with the same values would say.
@Suite struct BandRangeEditTests {
    private func fileErrors(_ text: String) -> [String] {
        ConfigurationLoader.parse(text).errors.map(\.description)
    }

    @Test func anEdgeOffTheAxisIsTheFilesError() {
        var bands = BandsSettings()
        let problems = BandRangeEdit.apply(.bass, lower: 5, upper: nil, to: &bands)
        #expect(problems == fileErrors("[bands.bass]\nlower = 5"))
        #expect(problems.first?.hasPrefix("bands.bass.lower: ") == true, "\(problems)")
        #expect(bands == BandsSettings(), "nothing changed")
    }

    @Test func crossedEdgesAreTheFilesError() {
        var bands = BandsSettings()
        let problems = BandRangeEdit.apply(.mid, lower: 3_000, upper: 1_000, to: &bands)
        #expect(problems == fileErrors("[bands.mid]\nlower = 3000\nupper = 1000"))
        #expect(problems.first?.contains("below upper") == true, "\(problems)")
        // One edge against the band's other, current one.
        #expect(BandRangeEdit.apply(.bass, lower: 500, upper: nil, to: &bands).first?.contains("below upper") == true)
        #expect(bands == BandsSettings())
    }

    @Test func aGoodEditMovesThatBandAlone() {
        var bands = BandsSettings()
        #expect(BandRangeEdit.apply(.treble, lower: 5_000, upper: 12_000, to: &bands).isEmpty)
        #expect(bands.treble.range == FrequencyRange(lower: 5_000, upper: 12_000))
        #expect(bands.treble.color == BandsSettings().treble.color)
        #expect(bands.bass == BandsSettings().bass && bands.mid == BandsSettings().mid)
        #expect(BandRangeEdit.apply(.treble, lower: nil, upper: 15_000, to: &bands).isEmpty)
        #expect(bands.treble.range == FrequencyRange(lower: 5_000, upper: 15_000), "an edge left out stays")
    }
}
