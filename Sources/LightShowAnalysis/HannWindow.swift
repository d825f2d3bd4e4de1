#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Periodic Hann window coefficients, `0.5 − 0.5·cos(2πn/N)`, the usual choice for spectral analysis:
/// sidelobes fall 18 dB per octave, so a loud band leaks little into its neighbours.
struct HannWindow {
    let coefficients: [Float]
    /// Σ w², to turn windowed spectra back into signal power.
    let sumOfSquares: Double

    init(size: Int) {
        let step = 2 * Double.pi / Double(size)
        var values = [Float](repeating: 0, count: size)
        var squares = 0.0
        for n in 0..<size {
            let w = 0.5 - 0.5 * cos(step * Double(n))
            values[n] = Float(w)
            squares += w * w
        }
        coefficients = values
        sumOfSquares = squares
    }
}
