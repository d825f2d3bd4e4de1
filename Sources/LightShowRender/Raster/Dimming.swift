public import LightShowCore

extension Framebuffer {
    /// Scales every pixel by `factor` (0…1) except those inside `spared` (an ellipse in pixel units), so one light
    /// stands out on a darkened scene.
    public mutating func dim(by factor: Double, except spared: SceneCircle? = nil) {
        let scale = UInt32((min(1, max(0, factor)) * 256).rounded())
        let width = width, height = height
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                for x in 0..<width {
                    if let circle = spared, circle.radiusX > 0, circle.radiusY > 0 {
                        let dx = (Double(x) + 0.5 - circle.center.x) / circle.radiusX
                        let dy = (Double(y) + 0.5 - circle.center.y) / circle.radiusY
                        if dx * dx + dy * dy <= 1 { continue }
                    }
                    let offset = (y * width + x) * 3
                    for channel in offset..<(offset + 3) {
                        buffer[channel] = UInt8((UInt32(buffer[channel]) * scale) >> 8)
                    }
                }
            }
        }
    }
}
