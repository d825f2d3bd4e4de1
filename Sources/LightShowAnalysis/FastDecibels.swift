/// 10·log10(x) for the onset detector's spectra, several times faster than `log10f`: the exponent from the float's
/// bits plus a quadratic in the mantissa, within 0.02 dB (tested), far under the detector's 2 dB
/// threshold. Pure arithmetic, so a file and the same audio live give bit-identical values.
enum FastDecibels {
    /// 10·log10(2): dB per doubling.
    static let perOctave: Float = 3.0103

    /// `x` must be positive and finite (the spectra add a floor first).
    @inline(__always)
    static func of(_ x: Float) -> Float {
        let bits = x.bitPattern
        let exponent = Float(Int32(bitPattern: bits >> 23) - 128)
        let mantissa = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000)
        let log2 = exponent + (-0.34484843 * mantissa + 2.02466578) * mantissa - 0.67487759
        return perOctave * log2
    }

    /// Eight at once, the same arithmetic.
    @inline(__always)
    static func of(_ x: SIMD8<Float>) -> SIMD8<Float> {
        let bits = unsafeBitCast(x, to: SIMD8<UInt32>.self)
        let exponent = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: bits &>> 23) &- 128)
        let mantissa = unsafeBitCast((bits & 0x007F_FFFF) | 0x3F80_0000, to: SIMD8<Float>.self)
        let log2 = exponent + (-0.34484843 * mantissa + 2.02466578) * mantissa - 0.67487759
        return perOctave * log2
    }
}
