import LightShowCore

/// What the lights should show at one moment, before any output's layout: each band's colour and level, and
/// how much of the background gradient shows as a base (1 while the show runs, fading to 0 with a stop).
struct LightScene: Equatable, Sendable {
    var levels: BandLevels
    /// Bass, mid, treble.
    var colors: [RGBColor]
    var background: Double
    /// What WLED audio sync outputs send besides the levels: the analysis' spectrum summary, and the state.
    var spectrum: SpectrumSummary?
    var state = PlaybackState.playing

    init(levels: BandLevels, colors: [RGBColor], background: Double) {
        self.levels = levels
        self.colors = colors
        self.background = background
    }

    /// Every band at its configured colour.
    init(levels: BandLevels, bands: BandsSettings, background: Double) {
        self.init(levels: levels, colors: Band.allCases.map { bands[$0].color }, background: background)
    }

    static let dark: LightScene = {
        var scene = LightScene(levels: .zero, colors: [.black, .black, .black], background: 0)
        scene.state = .stopped
        return scene
    }()

    func color(of band: Band) -> RGBColor {
        colors[Band.allCases.firstIndex(of: band) ?? 0]
    }

    /// Level clamped to 0…1 (NaN to 0): levels come from analysis, so they are checked, not trusted.
    func alpha(of band: Band) -> Double {
        let level = Double(levels[band])
        return level.isFinite ? min(1, max(0, level)) : 0
    }
}
