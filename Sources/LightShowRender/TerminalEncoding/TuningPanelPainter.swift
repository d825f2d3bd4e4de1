import LightShowCore

/// The band-tuning panel across the top rows: the selected band and its range as text, then a range slider on a
/// log frequency axis with the range highlighted in the band's colour and the two knobs (the active one marked).
enum TuningPanelPainter {
    static let height = 3
    static let lowerKnob: UInt32 = 0x2590  // ▐
    static let upperKnob: UInt32 = 0x258C  // ▌

    static func draw(_ tuning: BandTuning, on grid: inout TerminalGrid) {
        guard grid.rows >= height + 2, grid.columns >= 24 else { return }
        let ink = grid.code(TerminalInk.text), paper = grid.code(TerminalInk.panel)
        for row in 0..<height {
            grid.put(String(repeating: " ", count: grid.columns), column: 0, row: row, foreground: ink, background: paper)
        }
        let band = tuning.selected
        let range = tuning.selectedRange
        let lower = BandTuning.formatHertz(range.lower), upper = BandTuning.formatHertz(range.upper)
        let marker = { (knob: BandTuning.Knob) in tuning.activeKnob == knob ? "›" : " " }
        let title = " Tune \(band.displayName): \(marker(.lower))\(lower) Hz – \(marker(.upper))\(upper) Hz"
        let titleEnd = grid.put(title, column: 0, row: 0, foreground: ink, background: paper)
        let help = "1/2/3 band · ←/→ move · Tab knob · t close "
        if grid.columns - help.count > titleEnd + 1 {
            grid.put(help, column: grid.columns - help.count, row: 0, foreground: grid.code(TerminalInk.axis), background: paper)
        }

        // Slider: "20 Hz" and "20k" labels at the ends, the axis in between.
        let leftLabel = " 20 Hz ", rightLabel = " 20k "
        let axisStart = leftLabel.count, axisEnd = grid.columns - rightLabel.count  // [start, end)
        let cellsOnAxis = axisEnd - axisStart
        guard cellsOnAxis >= 8 else { return }
        grid.put(leftLabel, column: 0, row: 1, foreground: ink, background: paper)
        grid.put(rightLabel, column: axisEnd, row: 1, foreground: ink, background: paper)
        let bandColor = grid.code(tuning.bands[band].color)
        let lowerColumn = axisStart + column(of: range.lower, range: range, cells: cellsOnAxis)
        let upperColumn = axisStart + column(of: range.upper, range: range, cells: cellsOnAxis)
        for x in axisStart..<axisEnd {
            let inside = x >= lowerColumn && x <= upperColumn
            grid[x, 1] = TerminalCell(
                scalar: inside ? TerminalCell.space : 0x2500,  // ─ outside the range
                foreground: grid.code(TerminalInk.axis), background: inside ? bandColor : paper
            )
        }
        for (knob, x, glyph) in [(BandTuning.Knob.lower, lowerColumn, lowerKnob), (.upper, upperColumn, upperKnob)] {
            let active = tuning.activeKnob == knob
            grid[x, 1] = TerminalCell(scalar: glyph, foreground: active ? ink : grid.code(TerminalInk.axis), background: bandColor)
        }
    }

    /// The axis cell of a frequency: its log position scaled onto the cells.
    static func column(of frequency: Double, range: FrequencyRange, cells: Int) -> Int {
        Int((BandTuning.axisFraction(of: frequency, range: range) * Double(cells - 1)).rounded())
    }
}
