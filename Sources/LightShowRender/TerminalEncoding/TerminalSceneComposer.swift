public import LightShowCore

/// Draws a scene into a `TerminalGrid`: the lights as half-block pixels, the toolbar as real text on the last row,
/// and the overlays (help balloon, band tuning) as text on top. One per viewer thread (it owns a `FrameRenderer`).
public final class TerminalSceneComposer {
    /// Smallest screen that shows the scene; anything smaller gets a short message.
    public static let minimumColumns = 24
    public static let minimumRows = 8
    /// Largest area drawn; a bigger screen shows it in its top-left corner. Real screens stay far inside (a 4K
    /// monitor in a 6-pixel font is about 640×270 cells), while the 65535×65535 a terminal may report would take
    /// gigabytes a frame (the encoder reserves 64 bytes a cell) and overflow the painter's 32-bit cell indices.
    public static let maximumColumns = 1000
    public static let maximumRows = 500

    private let renderer = FrameRenderer(fontPaths: [])
    /// Last frame's grid: its storage is reused once the caller has let go of it, so a frame allocates nothing.
    private var spareGrid: TerminalGrid?
    /// Decides which of a cell's two pixels look the same, remembering the colours it has measured.
    private var tolerance = PerceptualTolerance()

    public init() {}

    public static func fits(columns: Int, rows: Int) -> Bool {
        columns >= minimumColumns && rows >= minimumRows
    }

    /// The part of a `columns`×`rows` screen that is drawn on.
    public static func drawingArea(columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        (min(max(0, columns), maximumColumns), min(max(0, rows), maximumRows))
    }

    /// The scene for a screen of `columns`×`rows` cells: two pixels per cell vertically, the toolbar one row tall.
    /// `cellAspect` is a cell's height over its width (2 when unknown), so a half-block pixel is `2/cellAspect` wide.
    /// A screen larger than `drawingArea` gets the scene for that area.
    public static func scene(frame: ShowFrame, columns: Int, rows: Int, cellAspect: Double = 2, style: Scene.Style) -> Scene {
        let (columns, rows) = drawingArea(columns: columns, rows: rows)
        var style = style
        let height = 2 * rows
        style.scene.toolbarHeight = height > 0 ? 2 / Double(height) : 0
        let aspect = cellAspect > 0 && cellAspect.isFinite ? 2 / cellAspect : 1
        return Scene(frame: frame, width: columns, height: height, pixelAspect: aspect, style: style)
    }

    /// `scene(frame:…)` for successive frames: when only the levels moved (same screen, style, state, title and
    /// elapsed second) the last scene is reused with new levels, skipping the layout and the toolbar text.
    public func scene(frame: ShowFrame, columns: Int, rows: Int, cellAspect: Double = 2, style: Scene.Style) -> Scene {
        let elapsed = frame.elapsed ?? frame.time
        // `Scene.formatElapsed` depends only on the whole second (anything non-finite shows as 0:00, like -1).
        let key = SceneKey(
            columns: columns, rows: rows, cellAspect: cellAspect, style: style, state: frame.state, title: frame.title,
            second: elapsed.isFinite ? elapsed.rounded(.down) : -1
        )
        if var scene = lastScene, key == lastSceneKey {
            scene.updateLevels(from: frame)
            lastScene = scene
            return scene
        }
        let scene = Self.scene(frame: frame, columns: columns, rows: rows, cellAspect: cellAspect, style: style)
        lastScene = scene
        lastSceneKey = key
        return scene
    }

    private struct SceneKey: Equatable {
        var columns: Int
        var rows: Int
        var cellAspect: Double
        var style: Scene.Style
        var state: PlaybackState
        var title: String
        var second: Double
    }

    private var lastScene: Scene?
    private var lastSceneKey: SceneKey?

    public func compose(_ scene: Scene, depth: TerminalColorDepth, overlays: TerminalOverlays) -> TerminalGrid {
        let columns = scene.layout.width, rows = scene.layout.height / 2
        // Without overlays, and with the same canvas as the last frame, only the rows under the lights can differ.
        let plain = overlays.help == nil && overlays.tuning == nil
        let canvas = CanvasKey(layout: scene.layout, background: scene.background, circles: scene.lights.map(\.circle), depth: depth)
        var (grid, keptLastFrame) = reusedGrid(columns: columns, rows: rows, depth: depth, keepingCells: plain && canvas == lastPlainCanvas)
        defer {
            spareGrid = grid
            lastPlainCanvas = plain ? canvas : nil
        }
        let toolbarRow = scene.toolbar.map { Self.row(of: $0, gridRows: rows) }
        if keptLastFrame, let painter = lightPainter(for: canvas, background: scene.background, rowLimit: toolbarRow ?? rows) {
            // Only the levels moved: the lights are painted straight into last frame's cells, and the toolbar
            // is drawn again only if it changed.
            painter.paint(scene.lights, into: &grid, tolerance: &tolerance)
            if let toolbar = scene.toolbar, toolbar != lastToolbar {
                let background = renderer.backgroundImage(width: columns, height: 2 * rows, gradient: scene.background)
                drawToolbar(toolbar, image: background, dimmed: false, on: &grid)
            }
        } else {
            var pixels = scene
            pixels.toolbar = nil
            var image = renderer.render(pixels)
            if let step = overlays.help {
                image.dim(by: TerminalInk.dimFactor, except: step.light.map { scene.layout.circle(for: $0) })
            }
            if keptLastFrame {
                grid.drawPixels(image, rows: Self.rows(under: canvas.circles, gridRows: rows))
            } else {
                grid.drawPixels(image)
            }
            if let toolbar = scene.toolbar {
                drawToolbar(toolbar, image: image, dimmed: overlays.help != nil && overlays.help != .toolbar, on: &grid)
            }
        }
        lastToolbar = plain ? scene.toolbar : nil
        if let tuning = overlays.tuning {
            TuningPanelPainter.draw(tuning, on: &grid)
        }
        if let step = overlays.help {
            let target: CellRect
            switch step {
            case .light(let band): target = CellRect(circle: scene.layout.circle(for: band))
            case .toolbar: target = CellRect(column: 0, row: rows - 1, width: columns, height: 1)
            }
            let text = HelpOverlay.text(for: step, bands: overlays.bands)
            if let balloon = BalloonLayout(text: text, target: target, columns: columns, rows: rows) {
                drawBalloon(balloon, on: &grid)
            }
        }
        return grid
    }

    /// Last frame's grid, cleared unless `keepingCells` (then it still holds exactly what the last frame drew).
    private func reusedGrid(columns: Int, rows: Int, depth: TerminalColorDepth, keepingCells: Bool) -> (TerminalGrid, kept: Bool) {
        guard var grid = spareGrid.take(), grid.columns == columns, grid.rows == rows, grid.depth == depth else {
            return (TerminalGrid(columns: columns, rows: rows, depth: depth), false)
        }
        if !keepingCells { grid.clear() }
        return (grid, keepingCells)
    }

    /// What the pixels outside the lights depend on.
    private struct CanvasKey: Equatable {
        var layout: SceneLayout
        var background: LinearGradient
        var circles: [SceneCircle]
        var depth: TerminalColorDepth
    }

    private var lastPlainCanvas: CanvasKey?
    /// The toolbar last frame's grid holds (plain frames only).
    private var lastToolbar: Scene.Toolbar?
    /// The light painter for the current canvas, nil when it can't be used there.
    private var painter: (canvas: CanvasKey, rowLimit: Int, painter: TerminalLightPainter?)?

    private func lightPainter(for canvas: CanvasKey, background gradient: LinearGradient, rowLimit: Int) -> TerminalLightPainter? {
        if let painter, painter.canvas == canvas, painter.rowLimit == rowLimit { return painter.painter }
        let background = renderer.backgroundImage(
            width: canvas.layout.width, height: canvas.layout.height, gradient: gradient
        )
        let fresh = TerminalLightPainter(
            circles: canvas.circles, background: background, columns: canvas.layout.width, rowLimit: rowLimit
        )
        painter = (canvas, rowLimit, fresh)
        return fresh
    }

    /// The cell rows that `Framebuffer.fillCircle` can touch for these circles (its pixel rows, halved).
    static func rows(under circles: [SceneCircle], gridRows: Int) -> Range<Int> {
        var top = gridRows, bottom = 0
        for circle in circles {
            guard let pixels = Framebuffer.rows(touchedBy: circle, height: 2 * gridRows) else { continue }
            top = min(top, pixels.lowerBound / 2)
            bottom = max(bottom, pixels.upperBound / 2 + 1)
        }
        return top < bottom ? top..<bottom : 0..<0
    }

    /// A screen too small for the scene: one centred line saying so.
    public static func tooSmall(columns: Int, rows: Int, depth: TerminalColorDepth) -> TerminalGrid {
        let (columns, rows) = drawingArea(columns: columns, rows: rows)
        var grid = TerminalGrid(columns: columns, rows: rows, depth: depth)
        let full = "Terminal too small: need \(minimumColumns)×\(minimumRows)"
        let text = full.count <= columns ? full : "too small"
        let column = max(0, (columns - text.count) / 2)
        grid.put(text, column: column, row: rows / 2, foreground: TerminalCell.defaultColor, background: TerminalCell.defaultColor)
        return grid
    }

    /// The cell row the toolbar's text goes on.
    private static func row(of toolbar: Scene.Toolbar, gridRows: Int) -> Int {
        min(gridRows - 1, Int(toolbar.rect.y / 2))
    }

    /// ` ▶ title ……… 1:05 ` in white on the darkened strip.
    private func drawToolbar(_ toolbar: Scene.Toolbar, image: Framebuffer, dimmed: Bool, on grid: inout TerminalGrid) {
        let row = Self.row(of: toolbar, gridRows: grid.rows)
        guard row >= 0, grid.columns > 0 else { return }
        let strip = TerminalInk.stripAlpha
        let ink = dimmed ? TerminalInk.text.mixed(with: .black, fraction: 1 - TerminalInk.dimFactor) : TerminalInk.text
        let inkCode = grid.code(ink)
        for column in 0..<grid.columns {
            let p = image.pixel(x: min(column, image.width - 1), y: min(2 * row, image.height - 1))
            let background = RGBColor.black.composited(over: RGBColor(red: p.r, green: p.g, blue: p.b), alpha: strip)
            grid[column, row] = TerminalCell(scalar: TerminalCell.space, foreground: inkCode, background: grid.code(background))
        }
        let elapsed = toolbar.elapsedText
        let elapsedColumn = grid.columns - 1 - elapsed.count
        grid.put(toolbar.state.glyph ?? "", column: 1, row: row, before: grid.columns)
        let titleColumn = 3
        let room = elapsedColumn - 1 - titleColumn
        if room > 0 {
            // Fitted by the cells it takes: wide characters take two.
            let fits = CellWidth.of(text: toolbar.title) <= room
            let end = grid.put(toolbar.title, column: titleColumn, row: row, before: titleColumn + (fits ? room : room - 1))
            if !fits { grid.put("…", column: end, row: row, before: titleColumn + room) }
        }
        if elapsedColumn > titleColumn { grid.put(elapsed, column: elapsedColumn, row: row, before: grid.columns) }
    }

    private func drawBalloon(_ balloon: BalloonLayout, on grid: inout TerminalGrid) {
        let box = balloon.box
        let ink = grid.code(TerminalInk.text), paper = grid.code(TerminalInk.balloon)
        for row in box.row...box.lastRow where row >= 0 && row < grid.rows {
            let line: String
            if row == box.row {
                line = "╭" + String(repeating: "─", count: box.width - 2) + "╮"
            } else if row == box.lastRow {
                line = "╰" + String(repeating: "─", count: box.width - 2) + "╯"
            } else {
                let text = balloon.lines[row - box.row - 1]
                line = "│ " + text + String(repeating: " ", count: box.width - 4 - text.count) + " │"
            }
            grid.put(line, column: box.column, row: row, foreground: ink, background: paper)
        }
        let arrow = balloon.arrowRow
        if arrow >= 0 && arrow < grid.rows && balloon.arrowColumn < grid.columns {
            var cell = grid[balloon.arrowColumn, arrow]
            // The pixel underneath stays the arrow's background, so the arrow sits on the scene.
            cell.foreground = ink
            cell.scalar = balloon.placement.arrow.unicodeScalars.first.map(\.value) ?? 0x20
            grid[balloon.arrowColumn, arrow] = cell
        }
    }
}

extension HelpOverlay.Step {
    /// The band whose light this step explains, nil for the toolbar.
    var light: Band? {
        if case .light(let band) = self { return band }
        return nil
    }
}
