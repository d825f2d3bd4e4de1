#if canImport(Glibc)
import Glibc
#endif

/// Colour value → output value for one output: the gamma curve, so that alpha (a linear step in colour value)
/// looks linear on a bare LED, then the brightness cap. A 256-entry table built once per output.
struct ChannelCurve: Sendable, Equatable {
    private let table: [UInt8]

    init(gamma: Double, brightness: Double) {
        let exponent = gamma.isFinite && gamma > 0 ? gamma : 1
        let cap = brightness.isFinite ? min(1, max(0, brightness)) : 0
        table = (0...255).map { value in
            let duty = pow(Double(value) / 255, exponent) * cap * 255
            // duty is within 0…255 by construction; the clamp keeps the conversion total anyway.
            return UInt8(min(255, max(0, duty.rounded())))
        }
    }

    subscript(value: UInt8) -> UInt8 {
        table[Int(value)]
    }
}
