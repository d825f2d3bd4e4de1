import Foundation

/// Frequency content of captured audio, for checking what a source delivered without the analyzer.
public enum Spectrum {
    /// Power spectrum of the first power-of-two stretch of `mono` (Hann window), bins 0…n/2.
    public static func power(_ mono: [Float]) -> [Double] {
        var n = 1
        while n * 2 <= mono.count { n *= 2 }
        var real = (0..<n).map { Double(mono[$0]) * (0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n))) }
        var imag = [Double](repeating: 0, count: n)
        fft(&real, &imag)
        return (0...(n / 2)).map { real[$0] * real[$0] + imag[$0] * imag[$0] }
    }

    /// The strongest frequency in `mono`, in Hz.
    public static func dominantFrequency(_ mono: [Float], sampleRate: Int) -> Double {
        let bins = power(mono)
        let peak = bins.indices.dropFirst().max { bins[$0] < bins[$1] } ?? 0
        return Double(peak) * Double(sampleRate) / Double((bins.count - 1) * 2)
    }

    /// Share of the power of `mono` that lies in each of `ranges` (Hz), in order.
    public static func energyShares(_ mono: [Float], sampleRate: Int, ranges: [ClosedRange<Double>]) -> [Double] {
        let bins = power(mono)
        let binHz = Double(sampleRate) / Double((bins.count - 1) * 2)
        let total = bins.dropFirst().reduce(0, +)
        guard total > 0 else { return ranges.map { _ in 0 } }
        return ranges.map { range in
            bins.indices.dropFirst().filter { range.contains(Double($0) * binHz) }.reduce(0) { $0 + bins[$1] } / total
        }
    }

    /// Root mean square of `samples`.
    public static func rms(_ samples: [Float]) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// Channel `channel` of interleaved `samples`.
    public static func channel(_ channel: Int, of samples: [Float], channels: Int) -> [Float] {
        stride(from: channel, to: samples.count, by: channels).map { samples[$0] }
    }

    /// In-place iterative radix-2 FFT.
    private static func fft(_ real: inout [Double], _ imag: inout [Double]) {
        let n = real.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { real.swapAt(i, j); imag.swapAt(i, j) }
        }
        var length = 2
        while length <= n {
            let angle = -2 * Double.pi / Double(length)
            for start in stride(from: 0, to: n, by: length) {
                for k in 0..<(length / 2) {
                    let (wr, wi) = (cos(angle * Double(k)), sin(angle * Double(k)))
                    let (a, b) = (start + k, start + k + length / 2)
                    let tr = real[b] * wr - imag[b] * wi
                    let ti = real[b] * wi + imag[b] * wr
                    real[b] = real[a] - tr; imag[b] = imag[a] - ti
                    real[a] += tr; imag[a] += ti
                }
            }
            length *= 2
        }
    }
}
