import Foundation
import Testing
@testable import LightShowAnalysis

@Suite struct FastDecibelsTests {
    /// Within 0.02 dB of 10·log10 from the spectra's floor (1e-9) to past full scale, eight at once as one by one.
    @Test func closeToTheExactValue() {
        var x: Float = 1e-9
        while x < 10 {
            let values = SIMD8<Float>((0..<8).map { x * (1 + Float($0) * 0.1) })
            let fast = FastDecibels.of(values)
            for lane in 0..<8 {
                let exact = 10 * log10(Double(values[lane]))
                #expect(abs(Double(fast[lane]) - exact) < 0.02, "\(values[lane])")
                #expect(abs(fast[lane] - FastDecibels.of(values[lane])) < 1e-4)
            }
            x *= 1.37
        }
    }
}
