#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import LightShowCore

extension RGBColor {
    /// WCAG 2.x relative luminance, 0 (black) … 1 (white): the sRGB channels linearised and weighted.
    public var relativeLuminance: Double {
        Self.relativeLuminance(red: Double(red), green: Double(green), blue: Double(blue))
    }

    /// The relative luminance of channels on the 0…255 scale, not rounded (a blend between two colours).
    public static func relativeLuminance(red: Double, green: Double, blue: Double) -> Double {
        0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// One sRGB channel (0…255) as linear light, 0…1.
    private static func linear(_ channel: Double) -> Double {
        let value = min(1, max(0, channel / 255))
        return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }
}
