import LightShowCore

/// Paints the lights of a terminal scene straight into grid cells, for frames where only their levels moved.
/// Built once per canvas, it keeps for every cell a light touches the background under its two pixels and how much
/// of each the light covers (`CircleRowSpan`, the same disc `Framebuffer.fillCircle` draws), so a frame only blends
/// and packs: no image to restore, rasterize and convert. The cells come out exactly as the image path makes them.
struct TerminalLightPainter {
    /// One pixel under a light: the background there and the light's coverage (≥ 1 all, ≤ 0 none).
    private struct Pixel {
        var background: (UInt8, UInt8, UInt8)
        var coverage: Double

        var isCovered: Bool { coverage >= 1 }

        @inline(__always)
        func blended(_ r: Int32, _ g: Int32, _ b: Int32, _ a16: Int32) -> (UInt8, UInt8, UInt8) {
            let a = CircleRowSpan.alpha(a16, coverage: coverage)
            guard a > 0 else { return background }
            return (blendChannel(background.0, r, a), blendChannel(background.1, g, a), blendChannel(background.2, b, a))
        }
    }

    /// A cell on the disc's edge: either pixel may be partly covered.
    private struct EdgeCell {
        var index: Int
        var top: Pixel
        var bottom: Pixel
    }

    /// Neighbouring cells inside a disc (both pixels fully covered) over the same background, as bytes (top r g b,
    /// bottom r g b, two spare): they all become the same cell, blended once. Under a vertical gradient that is a
    /// whole row of the disc. The blend is the same integer sum `blendChannel` does, six channels at once.
    private struct InnerRun {
        var start: Int32
        var count: Int32
        var background: SIMD8<UInt8>
    }

    /// The cells a light touches.
    private struct LightCells {
        var inner: [InnerRun] = []
        var edge: [EdgeCell] = []
    }

    /// Per light, in the scene's order: the cells it touches.
    private let cells: [LightCells]

    /// For `circles` over `background` (the canvas without lights), on a grid `columns` wide with two pixel rows
    /// per cell row, painting only cell rows below `rowLimit` (the toolbar's row and below stay as they are).
    /// Nil when two lights share a cell (a column of lights can meet inside one cell row), or a light covers a
    /// pixel from `rowLimit` on: such cells need what only the image path composes.
    init?(circles: [SceneCircle], background: Framebuffer, columns: Int, rowLimit: Int) {
        let width = min(columns, background.width), height = background.height
        var coversToolbar = false
        let cells: [LightCells] = circles.map { circle in
            var lightCells = LightCells()
            guard let rows = Framebuffer.rows(touchedBy: circle, height: height) else { return lightCells }
            for cellRow in (rows.lowerBound / 2)...(rows.upperBound / 2) {
                let topY = 2 * cellRow, bottomY = min(2 * cellRow + 1, height - 1)
                let spans = [topY, bottomY].map { rows.contains($0) ? CircleRowSpan(circle: circle, y: $0, width: width) : nil }
                let touched = spans.compactMap { $0 }
                guard let first = touched.map(\.first).min(), let last = touched.map(\.last).max() else { continue }
                func pixel(_ x: Int, _ y: Int, _ span: CircleRowSpan?) -> Pixel {
                    let color = background.pixel(x: x, y: y)
                    let coverage = span.map { x >= $0.first && x <= $0.last ? $0.coverage(x) : 0 } ?? 0
                    return Pixel(background: (color.r, color.g, color.b), coverage: coverage)
                }
                if cellRow >= rowLimit {
                    if (first...last).contains(where: { x in spans.contains { ($0?.coverage(x) ?? 0) > 0 } }) {
                        coversToolbar = true
                    }
                    continue
                }
                for x in first...last {
                    let index = cellRow * columns + x
                    let top = pixel(x, topY, spans[0]), bottom = pixel(x, bottomY, spans[1])
                    if top.isCovered && bottom.isCovered {
                        let t = top.background, b = bottom.background
                        let background = SIMD8<UInt8>(t.0, t.1, t.2, b.0, b.1, b.2, 0, 0)
                        if let last = lightCells.inner.last, Int(last.start + last.count) == index, last.background == background {
                            lightCells.inner[lightCells.inner.count - 1].count += 1
                        } else {
                            lightCells.inner.append(InnerRun(start: Int32(index), count: 1, background: background))
                        }
                    } else {
                        lightCells.edge.append(EdgeCell(index: index, top: top, bottom: bottom))
                    }
                }
            }
            return lightCells
        }
        let indices = cells.flatMap { $0.inner.flatMap { Int($0.start)..<Int($0.start + $0.count) } + $0.edge.map(\.index) }
        guard !coversToolbar, Set(indices).count == indices.count else { return nil }
        self.cells = cells
    }

    /// Paints each light at its colour and level into `grid`, which must hold this canvas.
    func paint(_ lights: [Scene.Light], into grid: inout TerminalGrid, tolerance: inout PerceptualTolerance) {
        let depth = grid.depth
        grid.cells.withUnsafeMutableBufferPointer { gridCells in
            for (light, cells) in zip(lights, cells) {
                let a16 = alpha16(light.level)
                let r = Int32(light.color.red), g = Int32(light.color.green), b = Int32(light.color.blue)
                let color = SIMD8<Int32>(r, g, b, r, g, b, 0, 0)
                let alpha = SIMD8<Int32>(repeating: a16)
                for run in cells.inner {
                    let background = SIMD8<Int32>(truncatingIfNeeded: run.background)
                    let mixed = background &+ (((color &- background) &* alpha &+ 32768) &>> 16)
                    let cell: TerminalCell
                    if depth == .truecolor {
                        cell = Self.truecolorCell(mixed, tolerance: &tolerance)
                    } else {
                        let lanes = SIMD8<UInt8>(truncatingIfNeeded: mixed)
                        cell = TerminalGrid.cell(
                            top: (lanes[0], lanes[1], lanes[2]), bottom: (lanes[3], lanes[4], lanes[5]), depth: depth,
                            tolerance: &tolerance
                        )
                    }
                    UnsafeMutableBufferPointer(rebasing: gridCells[Int(run.start)..<Int(run.start + run.count)]).update(repeating: cell)
                }
                for cell in cells.edge {
                    gridCells[cell.index] = TerminalGrid.cell(
                        top: cell.top.blended(r, g, b, a16), bottom: cell.bottom.blended(r, g, b, a16), depth: depth,
                        tolerance: &tolerance
                    )
                }
            }
        }
    }

    /// The truecolor cell for blended lanes (top r g b, bottom r g b), each already within 0…255.
    @inline(__always)
    private static func truecolorCell(_ lanes: SIMD8<Int32>, tolerance: inout PerceptualTolerance) -> TerminalCell {
        let packed = SIMD8<UInt32>(truncatingIfNeeded: lanes) &<< SIMD8<UInt32>(16, 8, 0, 16, 8, 0, 0, 0)
        return TerminalGrid.truecolorHalfBlock(
            top: packed[0] | packed[1] | packed[2], bottom: packed[3] | packed[4] | packed[5], tolerance: &tolerance
        )
    }
}
