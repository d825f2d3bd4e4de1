/// Fixed-point "source over" on one channel: `background + (foreground − background)·alpha`,
/// with alpha in 1/65536ths, rounded to nearest. Integer maths keeps frames byte-identical across runs and machines.
@inline(__always)
func blendChannel(_ background: UInt8, _ foreground: Int32, _ alpha16: Int32) -> UInt8 {
    let bg = Int32(background)
    let mixed = bg + (((foreground - bg) * alpha16 + 32768) >> 16)
    return UInt8(truncatingIfNeeded: mixed)
}

/// Alpha 0…1 as 1/65536ths.
@inline(__always)
func alpha16(_ alpha: Double) -> Int32 {
    guard alpha.isFinite else { return 0 }
    return Int32((min(1, max(0, alpha)) * 65536).rounded())
}

extension UnsafeMutablePointer where Pointee == UInt8 {
    /// Composites `color` at `alpha16` over the RGB pixel at this address.
    @inline(__always)
    func blendPixel(_ r: Int32, _ g: Int32, _ b: Int32, _ alpha16: Int32) {
        self[0] = blendChannel(self[0], r, alpha16)
        self[1] = blendChannel(self[1], g, alpha16)
        self[2] = blendChannel(self[2], b, alpha16)
    }
}
