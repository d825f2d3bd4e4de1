import LightShowCore
import Testing

@Suite struct PlaybackEffectsTests {
    let live = BandLevels(bass: 0.8, mid: 0.4, treble: 0.2)

    func effects(dim: Double = 0.5, fade: Double = 2) -> PlaybackEffects {
        var settings = PlaybackSettings()
        settings.pausedDim = dim
        settings.fadeOutSeconds = fade
        return PlaybackEffects(settings: settings)
    }

    @Test func startsDark() {
        let effects = effects()
        #expect(effects.isDark(at: 0))
    }

    @Test func playingShowsLiveLevels() {
        var effects = effects()
        effects.enter(.playing, at: 0)
        #expect(effects.levels(live: live, at: 0.1) == live)
        let next = BandLevels(bass: 0.1, mid: 0.9, treble: 0.5)
        #expect(effects.levels(live: next, at: 0.2) == next)
        // No new analysis: the newest levels stay.
        #expect(effects.levels(live: nil, at: 0.3) == next)
        #expect(!effects.isDark(at: 0.3))
    }

    @Test func pausedHoldsTheLastLevelsDimmed() {
        var effects = effects(dim: 0.5)
        effects.enter(.playing, at: 0)
        _ = effects.levels(live: live, at: 0.1)
        effects.enter(.paused, at: 0.2)
        let held = live.scaled(by: 0.5)
        #expect(effects.levels(live: BandLevels(bass: 1, mid: 1, treble: 1), at: 0.3) == held)
        #expect(effects.levels(live: .zero, at: 5) == held)
        #expect(!effects.isDark(at: 100))
        // Playing again shows live levels at once.
        effects.enter(.playing, at: 6)
        #expect(effects.levels(live: .zero, at: 6) == .zero)
    }

    @Test func stoppedFadesOutOverTheConfiguredTime() {
        var effects = effects(fade: 2)
        effects.enter(.playing, at: 0)
        _ = effects.levels(live: live, at: 1)
        effects.enter(.stopped, at: 1)
        #expect(effects.levels(live: live, at: 1) == live)
        #expect(effects.levels(live: BandLevels(bass: 1, mid: 1, treble: 1), at: 2) == live.scaled(by: 0.5))
        #expect(!effects.isDark(at: 2.9))
        #expect(effects.levels(live: nil, at: 3) == .zero)
        #expect(effects.isDark(at: 3))
        #expect(effects.levels(live: live, at: 10) == .zero)
    }

    @Test func stopWhilePausedFadesFromTheDimmedLevels() {
        var effects = effects(dim: 0.5, fade: 1)
        effects.enter(.playing, at: 0)
        _ = effects.levels(live: live, at: 0)
        effects.enter(.paused, at: 0)
        _ = effects.levels(live: nil, at: 0.5)
        effects.enter(.stopped, at: 1)
        #expect(effects.levels(live: nil, at: 1.5) == live.scaled(by: 0.5).scaled(by: 0.5))
    }

    @Test func zeroFadeGoesDarkAtOnce() {
        var effects = effects(fade: 0)
        effects.enter(.playing, at: 0)
        _ = effects.levels(live: live, at: 0)
        effects.enter(.stopped, at: 1)
        #expect(effects.levels(live: nil, at: 1) == .zero)
        #expect(effects.isDark(at: 1))
    }
}
