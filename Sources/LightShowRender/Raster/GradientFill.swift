public import LightShowCore

extension Framebuffer {
    /// Fills the whole image with the background gradient, each pixel exactly `LinearGradient.color`
    /// (p = (x/width, y/height) in gradient space, as `LinearGradient` defines it). Renderers cache the result per canvas,
    /// so exactness costs nothing per frame.
    public mutating func fillGradient(_ gradient: LinearGradient) {
        guard width > 0, height > 0 else { return }
        let w = Double(width), h = Double(height)
        let width = width, height = height
        // A gradient that doesn't vary along x (angle 90/270) gives constant rows.
        let rowsAreConstant = gradient.end.x == gradient.start.x
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in 0..<height {
                var pixel = base + y * width * 3
                var color = gradient.color(x: 0, y: Double(y), width: w, height: h)
                for x in 0..<width {
                    if !rowsAreConstant && x > 0 {
                        color = gradient.color(x: Double(x), y: Double(y), width: w, height: h)
                    }
                    pixel[0] = color.red; pixel[1] = color.green; pixel[2] = color.blue
                    pixel += 3
                }
            }
        }
    }
}
