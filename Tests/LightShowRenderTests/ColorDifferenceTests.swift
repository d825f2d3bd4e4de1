import LightShowCore
import LightShowRender
import Testing

@Suite struct ColorDifferenceTests {
    /// Pairs from Sharma, Wu and Dalal's CIEDE2000 test data (2005), with their published differences.
    static let sharmaPairs: [(LabColor, LabColor, Double)] = [
        (LabColor(l: 50, a: 2.6772, b: -79.7751), LabColor(l: 50, a: 0, b: -82.7485), 2.0425),
        (LabColor(l: 50, a: 3.1571, b: -77.2803), LabColor(l: 50, a: 0, b: -82.7485), 2.8615),
        (LabColor(l: 50, a: 2.8361, b: -74.0200), LabColor(l: 50, a: 0, b: -82.7485), 3.4412),
        (LabColor(l: 50, a: 0, b: 0), LabColor(l: 50, a: -1, b: 2), 2.3669),
        (LabColor(l: 50, a: 2.4900, b: -0.0010), LabColor(l: 50, a: -2.4900, b: 0.0009), 7.1792),
        (LabColor(l: 50, a: 2.5, b: 0), LabColor(l: 73, a: 25, b: -18), 27.1492),
        (LabColor(l: 50, a: 2.5, b: 0), LabColor(l: 50, a: 3.1736, b: 0.5854), 1.0000),
        (LabColor(l: 60.2574, a: -34.0099, b: 36.2677), LabColor(l: 60.4626, a: -34.1751, b: 39.4387), 1.2644),
        (LabColor(l: 2.0776, a: 0.0795, b: -1.1350), LabColor(l: 0.9033, a: -0.0636, b: -0.5514), 0.9082),
    ]

    @Test(arguments: sharmaPairs.indices) func publishedDifferences(index: Int) {
        let (x, y, expected) = Self.sharmaPairs[index]
        #expect(abs(ColorDifference.ciede2000(x, y) - expected) < 0.0001)
        // The measure is symmetric.
        #expect(abs(ColorDifference.ciede2000(y, x) - expected) < 0.0001)
    }

    @Test func srgbToLabAtKnownPoints() {
        let white = LabColor(RGBColor(red: 255, green: 255, blue: 255))
        #expect(abs(white.l - 100) < 0.01 && abs(white.a) < 0.01 && abs(white.b) < 0.02)
        let black = LabColor(RGBColor(red: 0, green: 0, blue: 0))
        #expect(black == LabColor(l: 0, a: 0, b: 0))
        let red = LabColor(RGBColor(red: 255, green: 0, blue: 0))
        #expect(abs(red.l - 53.24) < 0.01 && abs(red.a - 80.09) < 0.05 && abs(red.b - 67.20) < 0.05)
    }

    @Test func equalColoursDoNotDiffer() {
        let color = RGBColor(red: 12, green: 200, blue: 99)
        #expect(ColorDifference.ciede2000(color, color) == 0)
    }
}

extension ColorDifferenceTests {
    /// The bounds give the same answers as the whole measure, over colours spread through the cube and their
    /// near neighbours (where the answer is close), far (±6 a channel), nearer (±3, where the bounds with C' decide
    /// many) and very near (±2, where the first upper bound decides most).
    @Test func isWithinAgreesWithTheWholeMeasure() {
        var state: UInt32 = 12345
        func next() -> UInt8 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        for reach in [6, 3, 2] {
            func near(_ value: UInt8) -> UInt8 { UInt8(clamping: Int(value) + Int(next() % UInt8(2 * reach + 1)) - reach) }
            for _ in 0..<20_000 {
                let x = RGBColor(red: next(), green: next(), blue: next())
                let y = RGBColor(red: near(x.red), green: near(x.green), blue: near(x.blue))
                let within = ColorDifference.isWithin(1.5, LabColor(x), LabColor(y))
                #expect(within == (ColorDifference.ciede2000(x, y) <= 1.5), "\(x) \(y)")
            }
        }
    }
}
