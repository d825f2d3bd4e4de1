import LightShowCore

/// The CIELAB values of recently seen 24-bit colours, so each is converted once rather than at every comparison.
/// A frame has few distinct colours (a light's cells are its colour over a gradient that doesn't move, at a
/// level and a rim coverage), and neighbouring cells and the next frame bring the same ones back. Direct-mapped
/// and small (8 KB) so it stays in the processor's first-level cache: a larger table, cold again at every frame on
/// a busy machine, cost more in memory stalls than the conversions it saved. Values are kept in single precision
/// (within 10⁻⁵ of the exact ones); `PerceptualTolerance` leaves a margin for that.
struct LabCache {
    private struct Entry {
        /// The packed colour held, or `empty`.
        var key: UInt32
        var l: Float
        var a: Float
        var b: Float
    }

    private static let slotBits = 9
    /// No packed colour (24 bits) has its top byte set.
    private static let empty = UInt32.max
    private var entries = [Entry](repeating: Entry(key: empty, l: 0, a: 0, b: 0), count: 1 << slotBits)

    /// The colour `packed` (0xRRGGBB) in CIELAB.
    @inline(__always)
    mutating func lab(_ packed: UInt32) -> LabColor {
        let slot = Int(truncatingIfNeeded: (packed &* 0x9E37_79B1) >> UInt32(32 - Self.slotBits))
        return entries.withUnsafeMutableBufferPointer { entries in
            let entry = entries[slot]
            if entry.key == packed { return LabColor(l: Double(entry.l), a: Double(entry.a), b: Double(entry.b)) }
            let lab = LabColor(PerceptualTolerance.color(packed))
            entries[slot] = Entry(key: packed, l: Float(lab.l), a: Float(lab.a), b: Float(lab.b))
            return LabColor(l: Double(Float(lab.l)), a: Double(Float(lab.a)), b: Double(Float(lab.b)))
        }
    }
}
