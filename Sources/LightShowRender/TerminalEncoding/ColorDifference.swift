#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
public import LightShowCore

/// A colour in CIELAB (D65 white): `l` 0…100, `a` and `b` about ±128.
public struct LabColor: Equatable, Sendable {
    public var l: Double
    public var a: Double
    public var b: Double

    public init(l: Double, a: Double, b: Double) {
        self.l = l
        self.a = a
        self.b = b
    }

    /// The sRGB colour in CIELAB.
    public init(_ color: RGBColor) {
        let r = ColorDifference.linear[Int(color.red)]
        let g = ColorDifference.linear[Int(color.green)]
        let b = ColorDifference.linear[Int(color.blue)]
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
        let fx = Self.f(x), fy = Self.f(y), fz = Self.f(z)
        self.init(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    @inline(__always)
    private static func f(_ t: Double) -> Double {
        t > 216.0 / 24389.0 ? cubeRoot(t) : (24389.0 / 27.0 * t + 16) / 116
    }

    /// Cube roots of 0, 1/1024 … 1.
    private static let cubeRoots: [Double] = (0...1024).map { cbrt(Double($0) / 1024) }

    /// ∛t for t in (0.008, 1] from the table and two Newton steps (exact to about 10⁻¹⁵, a third of libm's
    /// time); elsewhere libm's.
    @inline(__always)
    private static func cubeRoot(_ t: Double) -> Double {
        guard t <= 1 else { return cbrt(t) }
        let position = t * 1024
        let index = Int(position)
        let lower = cubeRoots[index], upper = cubeRoots[min(index + 1, 1024)]
        var x = lower + (upper - lower) * (position - Double(index))
        x -= (x * x * x - t) / (3 * x * x)
        x -= (x * x * x - t) / (3 * x * x)
        return x
    }
}

/// How different two colours look: CIEDE2000 (Sharma, Wu and Dalal 2005), where about 1 is the smallest
/// difference an observer notices side by side.
public enum ColorDifference {
    /// sRGB channel value → linear light.
    static let linear: [Double] = (0..<256).map { (value: Int) -> Double in
        let c = Double(value) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    public static func ciede2000(_ x: RGBColor, _ y: RGBColor) -> Double {
        x == y ? 0 : ciede2000(LabColor(x), LabColor(y))
    }

    /// `ciede2000(x, y) <= limit`, told without the whole measure when bounds on it settle the answer.
    /// Below: the difference is never less than its lightness term, since the rotation term R_T·ΔC'·ΔH' never
    /// outweighs ΔC'² + ΔH'². Above, first without C': |R_T| ≤ 2·sin 60°, so ΔE² ≤ (ΔL/S_L)² + (1 + sin 60°)(ΔC'² +
    /// ΔH'²)/S², where ΔC'² + ΔH'² = ((1 + G)Δa)² + Δb² and S = 1 + 0.015·0.36·C̄ is at most S_C and S_H (T ≥ 0.362
    /// at every hue, and C̄' ≥ C̄). Then with ΔC' and S_C exact, ΔH'/S_H between its values at T = 1.5725 and
    /// T = 0.362, and |R_T| ≤ R_C·sin 60°, on both sides. Only pairs close to the limit need the hue's trigonometry.
    @inline(__always)
    public static func isWithin(_ limit: Double, _ x: LabColor, _ y: LabColor) -> Bool {
        let dL = y.l - x.l, da = y.a - x.a, db = y.b - x.b
        let sL = lightnessWeight(meanL: (x.l + y.l) / 2)
        if abs(dL) > limit * sL { return false }
        let meanC = ((x.a * x.a + x.b * x.b).squareRoot() + (y.a * y.a + y.b * y.b).squareRoot()) / 2
        let meanC7 = seventhPower(meanC)
        let g = 1.5 - 0.5 * (meanC7 / (meanC7 + 6_103_515_625)).squareRoot()  // 1 + G
        let s = 1 + 0.0054 * meanC
        let lightness = dL / sL
        let l2 = lightness * lightness
        let chroma2 = g * g * da * da + db * db  // ΔC'² + ΔH'²
        // The margins keep a rounding error at a bound from deciding.
        let below = limit * limit * (1 - 1e-9), above = limit * limit * (1 + 1e-9)
        if l2 + 1.8660255 * chroma2 / (s * s) <= below { return true }
        let a1 = g * x.a, a2 = g * y.a
        let c1p = (a1 * a1 + x.b * x.b).squareRoot(), c2p = (a2 * a2 + y.b * y.b).squareRoot()
        let meanCp = (c1p + c2p) / 2, dC = c2p - c1p
        let dH = max(0, chroma2 - dC * dC).squareRoot()
        let meanCp7 = seventhPower(meanCp)
        let rotation = 1.7320509 * (meanCp7 / (meanCp7 + 6_103_515_625)).squareRoot()  // ≥ |R_T|
        let c = abs(dC) / (1 + 0.045 * meanCp)
        let hMost = dH / (1 + 0.00543 * meanCp), hLeast = dH / (1 + 0.0235875 * meanCp)
        if l2 + c * c + hMost * hMost + rotation * c * hMost <= below { return true }
        // c² + h² − rotation·c·h is least at h = rotation·c/2, or at the smallest h above it.
        let h = max(hLeast, rotation * c / 2)
        if l2 + c * c + h * h - rotation * c * h > above { return false }
        return ciede2000(x, y) <= limit
    }

    /// S_L.
    @inline(__always)
    private static func lightnessWeight(meanL: Double) -> Double {
        let l50 = (meanL - 50) * (meanL - 50)
        return 1 + 0.015 * l50 / (20 + l50).squareRoot()
    }

    public static func ciede2000(_ x: LabColor, _ y: LabColor) -> Double {
        let c1 = (x.a * x.a + x.b * x.b).squareRoot(), c2 = (y.a * y.a + y.b * y.b).squareRoot()
        let meanC7 = seventhPower((c1 + c2) / 2)
        let g = 0.5 * (1 - (meanC7 / (meanC7 + 6_103_515_625)).squareRoot())  // 25⁷
        let a1 = (1 + g) * x.a, a2 = (1 + g) * y.a
        let c1p = (a1 * a1 + x.b * x.b).squareRoot(), c2p = (a2 * a2 + y.b * y.b).squareRoot()
        let dL = y.l - x.l, dC = c2p - c1p
        // The hues as unit vectors rather than angles: ΔH' = 2√(C1'C2')·sin(Δh'/2) is ±√(2(C1'C2' − a1'a2' − b1b2)),
        // signed like the turn from the first to the second, and the mean hue h̄' (the bisector of the smaller angle
        // between them, or the one hue when the other colour is neutral) is the direction of their sum.
        let product = c1p * c2p
        let turn = a1 * y.b - x.b * a2
        let dH = (max(0, 2 * (product - a1 * a2 - x.b * y.b))).squareRoot() * (turn < 0 ? -1 : 1)
        var sumA = 0.0, sumB = 0.0
        if c1p > 0 { sumA += a1 / c1p; sumB += x.b / c1p }
        if c2p > 0 { sumA += a2 / c2p; sumB += y.b / c2p }
        var length = (sumA * sumA + sumB * sumB).squareRoot()
        if product > 0 && length < 1e-9 {
            // Opposite hues: the mean of the two angles, as the published formula takes it.
            let mean = (hue(x.b, a1) + hue(y.b, a2)) / 2 * Double.pi / 180
            (sumA, sumB, length) = (cos(mean), sin(mean), 1)
        }
        let cos1 = length > 0 ? sumA / length : 1, sin1 = length > 0 ? sumB / length : 0
        let meanL = (x.l + y.l) / 2, meanCp = (c1p + c2p) / 2
        // T's four cosines from h̄' by multiple angles and fixed offsets (30°, 6°, 63°).
        let cos2: Double = 2 * cos1 * cos1 - 1, sin2: Double = 2 * sin1 * cos1
        let cos3: Double = cos1 * (4 * cos1 * cos1 - 3), sin3: Double = sin1 * (3 - 4 * sin1 * sin1)
        let cos4: Double = 2 * cos2 * cos2 - 1, sin4: Double = 2 * sin2 * cos2
        let term1: Double = 0.17 * (cos1 * 0.8660254037844387 + sin1 * 0.5)
        let term3: Double = 0.32 * (cos3 * 0.9945218953682733 - sin3 * 0.10452846326765347)
        let term4: Double = 0.20 * (cos4 * 0.45399049973954675 + sin4 * 0.8910065241883679)
        let t: Double = 1 - term1 + 0.24 * cos2 + term3 - term4
        // Δθ = 30°·exp(−((h̄' − 275°)/25°)²) is below 10⁻⁵° once h̄' is more than 95° from 275° (cos < −0.0872):
        // most hues, told from the unit vector without an angle.
        var dTheta = 0.0
        if cos1 * 0.08715574274765817 - sin1 * 0.9961946980917455 >= -0.08715574274765817 {
            let hueOffset = (hue(sin1, cos1) - 275) / 25
            dTheta = 30 * exp(-hueOffset * hueOffset)
        }
        let meanCp7 = seventhPower(meanCp)
        let rC = 2 * (meanCp7 / (meanCp7 + 6_103_515_625)).squareRoot()
        let sL = lightnessWeight(meanL: meanL)
        let sC = 1 + 0.045 * meanCp
        let sH = 1 + 0.015 * meanCp * t
        let rT = dTheta == 0 ? 0 : -sin(2 * dTheta * Double.pi / 180) * rC
        let l = dL / sL, c = dC / sC, h = dH / sH
        return max(0, l * l + c * c + h * h + rT * c * h).squareRoot()
    }

    @inline(__always)
    private static func seventhPower(_ x: Double) -> Double {
        let square = x * x
        return square * square * square * x
    }

    /// Hue angle in degrees, 0…360 (0 for a neutral colour).
    @inline(__always)
    private static func hue(_ b: Double, _ a: Double) -> Double {
        if a == 0 && b == 0 { return 0 }
        let degrees = atan2(b, a) * 180 / Double.pi
        return degrees < 0 ? degrees + 360 : degrees
    }
}
