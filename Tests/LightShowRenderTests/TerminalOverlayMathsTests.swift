import LightShowCore
import LightShowRender
import Testing

@Suite struct BandTuningTests {
    @Test func knobsStepAlongThirdOctavesAndClampToTheAxis() {
        var tuning = BandTuning(bands: BandsSettings())
        let r1 = tuning.moveActiveKnob(by: 1)
        #expect(r1)
        #expect(tuning.selectedRange.lower == 25)
        tuning.moveActiveKnob(by: 1)
        #expect(tuning.selectedRange.lower == 31.5)
        for _ in 0..<5 { tuning.moveActiveKnob(by: -1) }
        #expect(tuning.selectedRange.lower == 20)
        let r2 = tuning.moveActiveKnob(by: -1)
        #expect(!r2)
        tuning.selected = .treble
        tuning.activeKnob = .upper
        for _ in 0..<5 { tuning.moveActiveKnob(by: 1) }
        #expect(tuning.selectedRange.upper == 20_000)
    }

    @Test func knobsKeepAMinimumWidth() {
        var tuning = BandTuning(bands: BandsSettings())
        for _ in 0..<40 { tuning.moveActiveKnob(by: 1) }
        #expect(tuning.selectedRange.lower == 200)
        #expect(tuning.selectedRange.upper == 250)
        tuning.switchKnob()
        let r3 = tuning.moveActiveKnob(by: -1)
        #expect(!r3)
        #expect(tuning.selectedRange.upper / tuning.selectedRange.lower >= BandTuning.minimumRatio)
    }

    @Test func tomlSnippetNamesEveryBand() {
        var tuning = BandTuning(bands: BandsSettings())
        tuning.selected = .mid
        tuning.moveActiveKnob(by: 1)
        #expect(tuning.tomlSnippet.contains("[bands.mid]\nlower = 315\nupper = 4000\n"))
        #expect(tuning.tomlSnippet.hasPrefix("[bands.bass]\nlower = 20\nupper = 250\n"))
    }

    @Test func logAxisFractions() {
        #expect(BandTuning.axisFraction(of: 20) == 0)
        #expect(BandTuning.axisFraction(of: 20_000) == 1)
        #expect(abs(BandTuning.axisFraction(of: 632.46) - 0.5) < 1e-4)
        #expect(abs(BandTuning.frequency(atAxisFraction: 1.0 / 3) - 200) < 1e-6)
    }

    /// The panel quotes frequencies from outside (a config's bands): formatting one must never trap.
    @Test func formatsHugeFrequenciesWithoutTrapping() {
        #expect(BandTuning.formatHertz(1e300) == "1e+300")
    }
}

@Suite struct HelpOverlayTests {
    @Test func walksTheLightsThenTheToolbarThenCloses() {
        var help = HelpOverlay(open: true)
        #expect(help.step == .light(.bass))
        help.advance()
        #expect(help.step == .light(.mid))
        help.advance()
        #expect(help.step == .light(.treble))
        help.advance()
        #expect(help.step == .toolbar)
        help.advance()
        #expect(!help.isOpen)
        help.open()
        help.close()
        #expect(!help.isOpen)
    }

    @Test func bassText() {
        #expect(HelpOverlay.text(for: .light(.bass), bands: BandsSettings()) == "Bass · 20–250 Hz · follows the kick and the bass line")
    }

    @Test func balloonSitsAboveWhenThereIsRoom() throws {
        let target = CellRect(column: 30, row: 20, width: 20, height: 10)
        let balloon = try #require(BalloonLayout(text: "Bass · 20–250 Hz", target: target, columns: 80, rows: 40))
        #expect(balloon.placement == .above)
        #expect(balloon.arrowRow == 19)
        #expect(balloon.box.lastRow == 18)
        #expect(balloon.arrowColumn == target.centerColumn)
        #expect(balloon.placement.arrow == "▼")
    }

    @Test func balloonGoesBelowALightThatTouchesTheTop() throws {
        let target = CellRect(column: 30, row: 1, width: 20, height: 10)
        let balloon = try #require(BalloonLayout(text: "Bass · 20–250 Hz", target: target, columns: 80, rows: 40))
        #expect(balloon.placement == .below)
        #expect(balloon.arrowRow == 11)
        #expect(balloon.box.row == 12)
        #expect(balloon.placement.arrow == "▲")
    }

    @Test func balloonStaysOnScreenWhenNeitherSideFits() throws {
        let target = CellRect(column: 0, row: 1, width: 20, height: 37)
        let balloon = try #require(BalloonLayout(text: "a b c", target: target, columns: 30, rows: 40))
        #expect(balloon.placement == .below)
        #expect(balloon.box.lastRow == 39)
        #expect(balloon.arrowRow == balloon.box.row - 1)
        #expect(balloon.box.column >= 0)
    }

    @Test func longTextWraps() throws {
        let text = HelpOverlay.text(for: .toolbar, bands: BandsSettings())
        let balloon = try #require(BalloonLayout(text: text, target: CellRect(column: 0, row: 39, width: 80, height: 1), columns: 80, rows: 40))
        #expect(balloon.lines.count > 1)
        #expect(balloon.lines.allSatisfy { $0.count <= BalloonLayout.maxTextWidth })
        #expect(balloon.placement == .above)
    }
}
