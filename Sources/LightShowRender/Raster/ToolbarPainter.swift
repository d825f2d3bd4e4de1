import LightShowCore

/// Paints the toolbar strip: a translucent band, the playback glyph (▶ or ⏸, drawn as shapes because
/// DejaVu has no U+23F8), the title and the elapsed time, all scaled from the strip's height.
struct ToolbarPainter {
    static let stripColor = RGBColor.black
    static let stripAlpha = 0.35
    static let inkColor = RGBColor.white
    static let inkAlpha = 0.92

    /// Text size for a strip height, in pixels.
    static func fontPixelSize(stripHeight: Double) -> Int { max(6, Int((stripHeight * 0.42).rounded())) }

    static func paint(_ toolbar: Scene.Toolbar, on image: inout Framebuffer, font: FontFace?) {
        let strip = toolbar.rect
        guard strip.height >= 1 else { return }
        image.fillRect(strip, color: stripColor, alpha: stripAlpha)

        let padding = (strip.height * 0.35).rounded()
        let iconSize = (strip.height * 0.4).rounded()
        let icon = SceneRect(x: strip.x + padding, y: strip.y + (strip.height - iconSize) / 2, width: iconSize, height: iconSize)
        paintGlyph(for: toolbar.state, in: icon, on: &image)

        guard let font else { return }
        // Centre the font's line box vertically in the strip.
        let baseline = Int((strip.y + (strip.height + Double(font.ascender - font.descender)) / 2).rounded())
        let right = Int(strip.maxX - padding)
        let timeWidth = font.measure(toolbar.elapsedText)
        let timeX = right - timeWidth
        image.drawText(toolbar.elapsedText, font: font, x: timeX, baselineY: baseline, maxX: right + 1, color: inkColor, alpha: inkAlpha)

        let titleX = Int(icon.maxX + padding * 0.8)
        let titleRoom = timeX - Int(padding) - titleX
        guard titleRoom > 0 else { return }
        let title = Framebuffer.fitting(toolbar.title, font: font, maxWidth: titleRoom)
        image.drawText(title, font: font, x: titleX, baselineY: baseline, maxX: titleX + titleRoom, color: inkColor, alpha: inkAlpha)
    }

    /// ▶ as a right-pointing triangle, ⏸ as two bars.
    static func paintGlyph(for state: PlaybackState, in box: SceneRect, on image: inout Framebuffer) {
        switch state {
        case .playing:
            let left = box.x + box.width * 0.1, right = box.maxX - box.width * 0.05
            let top = box.y, bottom = box.maxY, middle = box.y + box.height / 2
            image.fillShape(bounds: box, color: inkColor, alpha: inkAlpha) { x, y in
                guard x >= left, x <= right else { return false }
                // Half-height of the triangle shrinks linearly from left to the tip.
                let half = (bottom - top) / 2 * (right - x) / (right - left)
                return abs(y - middle) <= half
            }
        case .paused:
            let barWidth = box.width * 0.3
            let firstBar = box.x + box.width * 0.12, secondBar = box.maxX - box.width * 0.12 - barWidth
            image.fillShape(bounds: box, color: inkColor, alpha: inkAlpha) { x, y in
                guard y >= box.y, y <= box.maxY else { return false }
                return (x >= firstBar && x <= firstBar + barWidth) || (x >= secondBar && x <= secondBar + barWidth)
            }
        case .stopped:
            break
        }
    }
}
