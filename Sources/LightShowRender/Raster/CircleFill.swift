public import LightShowCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Framebuffer {
    /// Composites a disc of `color` at `alpha` over the image, with coverage-based anti-aliasing at the edge:
    /// a pixel's coverage is `radius − distance + ½` (clamped), measured from the pixel centre in units of the
    /// vertical radius. Horizontal distances are scaled by `radiusY / radiusX`, so non-square pixels (a terminal's
    /// half blocks with a measured cell aspect) still give a round disc; with square pixels the scale is exactly 1.
    public mutating func fillCircle(_ circle: SceneCircle, color: RGBColor, alpha: Double) {
        let a16 = alpha16(alpha)
        guard a16 > 0, width > 0, height > 0, let rows = Self.rows(touchedBy: circle, height: height) else { return }
        let r = Int32(color.red), g = Int32(color.green), b = Int32(color.blue)
        let width = width
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in rows {
                guard let span = CircleRowSpan(circle: circle, y: y, width: width) else { continue }
                let row = base + y * width * 3
                let fullFirst = max(span.first, span.fullStart), fullLast = min(span.last, span.fullEnd)
                guard fullFirst <= fullLast else {
                    Self.blendEdge(row, span, span.first..<span.last + 1, r, g, b, a16)
                    continue
                }
                Self.blendEdge(row, span, span.first..<fullFirst, r, g, b, a16)
                Self.blendInterior(row + fullFirst * 3, count: fullLast - fullFirst + 1, r, g, b, a16)
                Self.blendEdge(row, span, fullLast + 1..<span.last + 1, r, g, b, a16)
            }
        }
    }

    /// The anti-aliased pixels of a row: each blended by its coverage.
    @inline(__always)
    private static func blendEdge(
        _ row: UnsafeMutablePointer<UInt8>, _ span: CircleRowSpan, _ xs: Range<Int>,
        _ r: Int32, _ g: Int32, _ b: Int32, _ a16: Int32
    ) {
        for x in xs {
            let a = CircleRowSpan.alpha(a16, coverage: span.coverage(x))
            if a > 0 { (row + x * 3).blendPixel(r, g, b, a) }
        }
    }

    /// `count` fully covered pixels from `start` (inside a disc, or a rectangle's row). The background there is
    /// often one colour across the row (a vertical gradient has constant rows): then one pixel is blended and copied
    /// over the rest, otherwise each distinct background colour is blended once.
    @inline(__always)
    private static func blendInterior(
        _ start: UnsafeMutablePointer<UInt8>, count: Int, _ r: Int32, _ g: Int32, _ b: Int32, _ a16: Int32
    ) {
        // A run equal to itself shifted by one pixel is one colour throughout.
        if count > 1, memcmp(start, start + 3, (count - 1) * 3) == 0 {
            start.blendPixel(r, g, b, a16)
            var filled = 1
            while filled < count {
                let copied = min(filled, count - filled)
                (start + filled * 3).update(from: start, count: copied * 3)
                filled += copied
            }
            return
        }
        var lastBackground: (UInt8, UInt8, UInt8) = (0, 0, 0)
        var lastBlended: (UInt8, UInt8, UInt8)?
        for x in 0..<count {
            let pixel = start + x * 3
            let background = (pixel[0], pixel[1], pixel[2])
            if let blended = lastBlended, background == lastBackground {
                pixel[0] = blended.0; pixel[1] = blended.1; pixel[2] = blended.2
            } else {
                pixel.blendPixel(r, g, b, a16)
                lastBackground = background
                lastBlended = (pixel[0], pixel[1], pixel[2])
            }
        }
    }

    /// The pixel rows `fillCircle` may change for `circle` on an image `height` rows tall; nil when none.
    public static func rows(touchedBy circle: SceneCircle, height: Int) -> ClosedRange<Int>? {
        let outer = circle.radiusY + 0.5
        let first = (circle.center.y - outer).rounded(.down), last = (circle.center.y + outer).rounded(.up)
        guard circle.radiusY > 0, height > 0, first.isFinite, last.isFinite, first < Double(height), last >= 0 else {
            return nil
        }
        return Int(max(0, first))...Int(min(Double(height - 1), last))
    }

    /// Composites `color` at `alpha` over the rectangle (whole pixels; fractional edges are rounded outward-in).
    public mutating func fillRect(_ rect: SceneRect, color: RGBColor, alpha: Double) {
        let a16 = alpha16(alpha)
        let x0 = max(0, Int(rect.x.rounded())), x1 = min(width, Int(rect.maxX.rounded()))
        let y0 = max(0, Int(rect.y.rounded())), y1 = min(height, Int(rect.maxY.rounded()))
        guard a16 > 0, x0 < x1, y0 < y1 else { return }
        let r = Int32(color.red), g = Int32(color.green), b = Int32(color.blue)
        let width = width
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in y0..<y1 {
                Self.blendInterior(base + (y * width + x0) * 3, count: x1 - x0, r, g, b, a16)
            }
        }
    }

    /// Composites `color` over the pixels of `bounds` where `inside` holds, with coverage from 4×4 supersampling.
    /// For small shapes (the toolbar's ▶ and ⏸), where exact area maths isn't worth it.
    mutating func fillShape(bounds: SceneRect, color: RGBColor, alpha: Double, inside: (Double, Double) -> Bool) {
        let a16 = alpha16(alpha)
        let x0 = max(0, Int(bounds.x.rounded(.down))), x1 = min(width - 1, Int(bounds.maxX.rounded(.up)))
        let y0 = max(0, Int(bounds.y.rounded(.down))), y1 = min(height - 1, Int(bounds.maxY.rounded(.up)))
        guard a16 > 0, x0 <= x1, y0 <= y1 else { return }
        let r = Int32(color.red), g = Int32(color.green), b = Int32(color.blue)
        let width = width
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in y0...y1 {
                for x in x0...x1 {
                    var hits: Int32 = 0
                    for sy in 0..<4 {
                        for sx in 0..<4 where inside(Double(x) + (Double(sx) + 0.5) / 4, Double(y) + (Double(sy) + 0.5) / 4) {
                            hits += 1
                        }
                    }
                    guard hits > 0 else { continue }
                    (base + (y * width + x) * 3).blendPixel(r, g, b, (a16 * hits + 8) / 16)
                }
            }
        }
    }
}
