public import LightShowCore

/// Paints scenes into RGB images. Keeps the background gradient of the current canvas and the toolbar font,
/// so a frame costs a copy plus the lights and the toolbar. One per thread: it owns a FreeType face.
public final class FrameRenderer {
    private let fontPaths: [String]
    private var background: Framebuffer?
    private var backgroundGradient: LinearGradient?
    private var canvas: Framebuffer?
    /// The pixel rows where `canvas` differs from `background`; nil when unknown (all of them).
    private var paintedRows: Range<Int>?
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
        var painted: Range<Int>? = 0..<0
        for light in scene.lights {
            image.fillCircle(light.circle, color: light.color, alpha: light.level)
            if let rows = Framebuffer.rows(touchedBy: light.circle, height: image.height), let sofar = painted {
                painted = sofar.isEmpty ? rows.lowerBound..<rows.upperBound + 1
                    : min(sofar.lowerBound, rows.lowerBound)..<max(sofar.upperBound, rows.upperBound + 1)
            }
        }
        if let toolbar = scene.toolbar {
            ToolbarPainter.paint(toolbar, on: &image, font: font(forStripHeight: toolbar.rect.height))
            painted = nil
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
        let rows = paintedRows ?? 0..<height
        let start = rows.lowerBound * image.rowBytes, count = (rows.upperBound - rows.lowerBound) * image.rowBytes
        guard count > 0 else { return image }
        image.pixels.withUnsafeMutableBufferPointer { target in
            background.pixels.withUnsafeBufferPointer { source in
                guard let to = target.baseAddress, let from = source.baseAddress else { return }
                (to + start).update(from: from + start, count: count)
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
