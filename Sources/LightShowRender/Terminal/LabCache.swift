import LightShowCore

/// The CIELAB values of recently seen 24-bit colours, so each is converted once rather than at every comparison.
/// A frame has few distinct colours (a light's cells are its colour over a gradient that doesn't move, at a
/// level and a rim coverage), and the same ones come back frame after frame. Direct-mapped: a colour whose slot
/// another took is converted again.
struct LabCache {
    private struct Entry {
        /// The packed colour held, or `empty`.
        var key: UInt32
        var lab: LabColor
    }

    /// Slots: 32 bytes each, 64 KB in all, enough for the colours of a few frames of a large screen.
    private static let slotBits = 11
    /// No packed colour (24 bits) has its top byte set.
    private static let empty = UInt32.max
    private var entries = [Entry](repeating: Entry(key: empty, lab: LabColor(l: 0, a: 0, b: 0)), count: 1 << slotBits)

    /// The colour `packed` (0xRRGGBB) in CIELAB.
    @inline(__always)
    mutating func lab(_ packed: UInt32) -> LabColor {
        let slot = Int(truncatingIfNeeded: (packed &* 0x9E37_79B1) >> UInt32(32 - Self.slotBits))
        return entries.withUnsafeMutableBufferPointer { entries in
            if entries[slot].key == packed { return entries[slot].lab }
            let lab = LabColor(PerceptualTolerance.color(packed))
            entries[slot] = Entry(key: packed, lab: lab)
            return lab
        }
    }
}
