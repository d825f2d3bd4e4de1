public import LightShowCore

extension Framebuffer {
    /// Draws `text` with its baseline at `baselineY`, starting at `x`, never past `maxX`:
    /// glyph coverage times `alpha` composites `color` over the image. Returns the pen position after the text.
    @discardableResult
    public mutating func drawText(
        _ text: String, font: FontFace, x: Int, baselineY: Int, maxX: Int, color: RGBColor, alpha: Double
    ) -> Int {
        let a16 = alpha16(alpha)
        let r = Int32(color.red), g = Int32(color.green), b = Int32(color.blue)
        let limit = min(maxX, width)
        var pen = x
        let width = width, height = height
        for scalar in text.unicodeScalars {
            guard let glyph = font.glyph(scalar) else { continue }
            if pen + glyph.advance > limit { break }
            let originX = pen + glyph.left, originY = baselineY - glyph.top
            pixels.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                for row in 0..<glyph.rows {
                    let y = originY + row
                    guard y >= 0, y < height else { continue }
                    for column in 0..<glyph.width {
                        let x = originX + column
                        guard x >= 0, x < width else { continue }
                        let coverage = Int32(glyph.coverage[row * glyph.width + column])
                        guard coverage > 0 else { continue }
                        (base + (y * width + x) * 3).blendPixel(r, g, b, (a16 * coverage + 127) / 255)
                    }
                }
            }
            pen += glyph.advance
        }
        return pen
    }

    /// `text`, shortened with "…" so that it fits in `maxWidth` pixels.
    public static func fitting(_ text: String, font: FontFace, maxWidth: Int) -> String {
        if font.measure(text) <= maxWidth { return text }
        var scalars = Array(text.unicodeScalars)
        let ellipsis = "…"
        while !scalars.isEmpty {
            scalars.removeLast()
            var candidate = String.UnicodeScalarView()
            candidate.append(contentsOf: scalars)
            let shortened = String(candidate) + ellipsis
            if font.measure(shortened) <= maxWidth { return shortened }
        }
        return ""
    }
}
