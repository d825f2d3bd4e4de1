public import LightShowCore

/// Nearest-colour mapping onto the xterm 256-colour palette and the 16 ANSI colours.
public enum TerminalPalette {
    /// The six channel levels of the 6×6×6 cube (indices 16…231).
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The 16 ANSI colours as xterm draws them by default.
    public static let ansi16: [RGBColor] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ].map { RGBColor(red: UInt8($0.0), green: UInt8($0.1), blue: UInt8($0.2)) }

    /// The RGB value of a 256-palette index from 16 up (the cube and the grey ramp).
    public static func color(ofIndex256 index: Int) -> RGBColor {
        if index < 16 { return ansi16[max(0, index)] }
        if index >= 232 {
            let level = UInt8(8 + 10 * (index - 232))
            return RGBColor(red: level, green: level, blue: level)
        }
        let cube = index - 16
        return RGBColor(
            red: UInt8(cubeLevels[cube / 36]), green: UInt8(cubeLevels[cube / 6 % 6]), blue: UInt8(cubeLevels[cube % 6])
        )
    }

    /// The nearest cube or grey-ramp entry (16…255); the first 16 are left out because terminals theme them.
    public static func nearest256(_ color: RGBColor) -> Int {
        let r = Int(color.red), g = Int(color.green), b = Int(color.blue)
        let ri = nearestCubeLevel(r), gi = nearestCubeLevel(g), bi = nearestCubeLevel(b)
        let cubeIndex = 16 + 36 * ri + 6 * gi + bi
        let cubeDistance = distance(r, g, b, cubeLevels[ri], cubeLevels[gi], cubeLevels[bi])
        // Grey ramp 8, 18, … 238 around the mean.
        let mean = (r + g + b) / 3
        let greyStep = min(23, max(0, (mean - 3) / 10))
        let grey = 8 + 10 * greyStep
        let greyDistance = distance(r, g, b, grey, grey, grey)
        return greyDistance < cubeDistance ? 232 + greyStep : cubeIndex
    }

    /// The nearest of the 16 ANSI colours (0…15).
    public static func nearest16(_ color: RGBColor) -> Int {
        let r = Int(color.red), g = Int(color.green), b = Int(color.blue)
        var best = 0, bestDistance = Int.max
        for (index, entry) in ansi16.enumerated() {
            let d = distance(r, g, b, Int(entry.red), Int(entry.green), Int(entry.blue))
            if d < bestDistance { best = index; bestDistance = d }
        }
        return best
    }

    static func nearestCubeLevel(_ value: Int) -> Int {
        // Levels are 0, then 95 + 40k: midpoints 47/48, 115, 155, 195, 235.
        if value < 48 { return 0 }
        if value < 115 { return 1 }
        return min(5, (value - 115) / 40 + 2)
    }

    /// Squared distance with the usual red/green/blue weights, so greens and reds don't collapse into greys.
    @inline(__always)
    static func distance(_ r1: Int, _ g1: Int, _ b1: Int, _ r2: Int, _ g2: Int, _ b2: Int) -> Int {
        let dr = r1 - r2, dg = g1 - g2, db = b1 - b2
        return 3 * dr * dr + 4 * dg * dg + 2 * db * db
    }
}
