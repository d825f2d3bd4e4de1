#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Conversions between linear power/amplitude and decibels.
public enum Decibels {
    /// Floor returned for zero or negative input, so silence has a finite level.
    public static let floor: Double = -200

    /// Power (mean square) to dB: `10·log10(power)`.
    public static func fromPower(_ power: Double) -> Double {
        guard power > 0, power.isFinite else { return floor }
        return Swift.max(floor, 10 * log10(power))
    }

    /// Amplitude (RMS or peak) to dB: `20·log10(amplitude)`.
    public static func fromAmplitude(_ amplitude: Double) -> Double {
        fromPower(amplitude * amplitude)
    }

    /// dB back to power.
    public static func toPower(_ decibels: Double) -> Double {
        pow(10, decibels / 10)
    }

    /// Band level in dB relative to a full-scale sine: a sine of peak 1 (mean square ½) reads 0 dB.
    public static func bandLevel(meanSquare: Double) -> Double {
        fromPower(meanSquare * 2)
    }
}
