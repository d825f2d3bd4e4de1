public import LightShowCore

/// Paints scenes into RGB images. Keeps the background gradient of the current canvas and the toolbar font,
/// so a frame costs a copy plus the lights and the toolbar. One per thread: it owns a FreeType face.
public final class FrameRenderer {
    private let fontPaths: [String]
    private var background: Framebuffer?
    private var backgroundGradient: LinearGradient?
    private var canvas: Framebuffer?
    /// The pixel rows where `canvas` differs from `background` (the lights' rows, the toolbar's); nil when unknown
    /// (all of them).
    private var paintedRows: [Range<Int>]?
    private var font: FontFace?
    private var fontTried: Int?

    public init(fontPaths: [String] = FontFace.searchPaths) {
        self.fontPaths = fontPaths
    }

    /// The font file used for the toolbar text, once a toolbar has been drawn; nil when none could be loaded.
    public var fontPath: String? { font?.path }

    public func render(_ scene: Scene) -> Framebuffer {
        let layout = scene.layout
        _ = backgroundImage(width: layout.width, height: layout.height, gradient: scene.background)
        var image = reusedCanvas(layout.width, layout.height)
        var lights: Range<Int> = 0..<0
        for light in scene.lights {
            image.fillCircle(light.circle, color: light.color, alpha: light.level)
            if let rows = Framebuffer.rows(touchedBy: light.circle, height: image.height) {
                lights = lights.isEmpty ? rows.lowerBound..<rows.upperBound + 1
                    : min(lights.lowerBound, rows.lowerBound)..<max(lights.upperBound, rows.upperBound + 1)
            }
        }
        var painted = [lights]
        if let toolbar = scene.toolbar {
            ToolbarPainter.paint(toolbar, on: &image, font: font(forStripHeight: toolbar.rect.height))
            // The strip's rows, and half a strip either side for any glyph reaching past it.
            let strip = toolbar.rect, margin = strip.height / 2
            let top = max(0, Int((strip.y - margin).rounded(.down)))
            let bottom = min(image.height, Int((strip.maxY + margin).rounded(.up)))
            if top < bottom { painted.append(top..<bottom) }
        }
        canvas = image
        paintedRows = painted
        return image
    }

    /// The canvas of that size filled with `gradient` alone, kept until either changes.
    public func backgroundImage(width: Int, height: Int, gradient: LinearGradient) -> Framebuffer {
        if let background, background.width == width, background.height == height, backgroundGradient == gradient {
            return background
        }
        var fresh = Framebuffer(width: width, height: height)
        fresh.fillGradient(gradient)
        background = fresh
        backgroundGradient = gradient
        paintedRows = nil
        return fresh
    }

    /// The background in last frame's image storage (once the caller has let go of it), so a frame allocates nothing.
    private func reusedCanvas(_ width: Int, _ height: Int) -> Framebuffer {
        let background = background ?? Framebuffer(width: width, height: height)
        guard var image = canvas.take(), image.width == width, image.height == height,
              image.pixels.count == background.pixels.count else { return background }
        // Only the rows last frame painted differ from the background.
        let rowBytes = image.rowBytes, painted = paintedRows ?? [0..<height]
        image.pixels.withUnsafeMutableBufferPointer { target in
            background.pixels.withUnsafeBufferPointer { source in
                guard let to = target.baseAddress, let from = source.baseAddress else { return }
                for rows in painted {
                    let start = max(0, rows.lowerBound) * rowBytes
                    let count = (min(height, rows.upperBound) - max(0, rows.lowerBound)) * rowBytes
                    if count > 0 { (to + start).update(from: from + start, count: count) }
                }
            }
        }
        return image
    }

    private func font(forStripHeight height: Double) -> FontFace? {
        let size = ToolbarPainter.fontPixelSize(stripHeight: height)
        if fontTried != size {
            fontTried = size
            font = FontFace(pixelSize: size, paths: fontPaths)
        }
        return font
    }
}
