import Foundation

/// Known signals for onset detection: hits at known times, and sustained sounds that must give no onset.
public enum AccentSignals {
    static func seconds(_ count: Int, _ sampleRate: Int) -> (Int) -> Double { { Double($0) / Double(sampleRate) } }

    /// A harmonic tone (five partials, 1/k) with vibrato of ±`depth` (a fraction) at `rate` Hz, faded in over
    /// `fadeIn` seconds (a swell) so its start is no onset either.
    public static func vibratoTone(
        frequencies: [Double], depth: Double, rate: Double, seconds: Double, fadeIn: Double, sampleRate: Int = 48_000,
        amplitude: Double = 0.15
    ) -> [Float] {
        let count = Int(seconds * Double(sampleRate))
        var output = [Float](repeating: 0, count: count)
        for frequency in frequencies {
            var phase = 0.0
            for n in 0..<count {
                let t = Double(n) / Double(sampleRate)
                phase += 2 * Double.pi * frequency * (1 + depth * sin(2 * Double.pi * rate * t)) / Double(sampleRate)
                var value = 0.0
                for k in 1...5 { value += sin(Double(k) * phase) / Double(k) }
                output[n] += Float(amplitude * value * min(1, t / fadeIn))
            }
        }
        return output
    }

    /// A harmonic tone whose amplitude swings by `depth` (0.8: between 0.2 and 1) at `rate` Hz, faded in.
    public static func tremoloTone(
        frequency: Double, depth: Double, rate: Double, seconds: Double, fadeIn: Double, sampleRate: Int = 48_000
    ) -> [Float] {
        let count = Int(seconds * Double(sampleRate))
        return (0..<count).map { n in
            let t = Double(n) / Double(sampleRate)
            var value = 0.0
            for k in 1...5 { value += sin(2 * Double.pi * frequency * Double(k) * t) / Double(k) }
            let swing = 1 - depth / 2 + depth / 2 * sin(2 * Double.pi * rate * t)
            return Float(0.2 * value * swing * min(1, t / fadeIn))
        }
    }

    /// Clicks (one sample at 0.9, one at −0.5: broadband) at `times`.
    public static func clicks(at times: [Double], seconds: Double, sampleRate: Int = 48_000) -> [Float] {
        var output = [Float](repeating: 0, count: Int(seconds * Double(sampleRate)))
        for time in times {
            let start = Int(time * Double(sampleRate))
            output[start] = 0.9
            output[start + 1] = -0.5
        }
        return output
    }

    /// Synthesised kicks (a sine falling from 150 to 50 Hz, decaying over 120 ms) at `times`, over a held 55 Hz
    /// bass at `bed` peak amplitude.
    public static func kicks(at times: [Double], seconds: Double, bed: Double = 0.1, sampleRate: Int = 48_000) -> [Float] {
        let rate = Double(sampleRate)
        var output = (0..<Int(seconds * rate)).map { Float(bed * sin(2 * Double.pi * 55 * Double($0) / rate)) }
        for time in times {
            let start = Int(time * rate)
            var phase = 0.0
            for n in 0..<min(Int(0.25 * rate), output.count - start) {
                let t = Double(n) / rate
                phase += 2 * Double.pi * (50 + 100 * exp(-t / 0.03)) / rate
                output[start + n] += Float(0.8 * sin(phase) * exp(-t / 0.12))
            }
        }
        return output
    }

    /// A drum pattern over a held bass and pad chord: kicks, snares (noise and a 200 Hz tone) and hats (high
    /// noise), at the returned times.
    public static func pattern(seconds: Double, sampleRate: Int = 48_000) -> (samples: [Float], kicks: [Double], snares: [Double], hats: [Double]) {
        let rate = Double(sampleRate)
        let beat = 0.5
        let kickTimes = stride(from: 0.25, to: seconds - 0.3, by: 2 * beat).map { $0 }
        let snareTimes = stride(from: 0.25 + beat, to: seconds - 0.3, by: 2 * beat).map { $0 }
        let hatTimes = stride(from: 0.25 + beat / 2, to: seconds - 0.3, by: beat).map { $0 }
        var output = kicks(at: kickTimes, seconds: seconds, bed: 0.08, sampleRate: sampleRate)
        let pad = vibratoTone(frequencies: [220, 277.18, 329.63], depth: 0.005, rate: 5, seconds: seconds, fadeIn: 0.2,
                              sampleRate: sampleRate, amplitude: 0.03)
        for n in output.indices { output[n] += pad[n] }
        var state: UInt64 = 0x5EED
        func noise() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53) * 2 - 1
        }
        for time in snareTimes {
            let start = Int(time * rate)
            for n in 0..<Int(0.15 * rate) {
                let t = Double(n) / rate
                output[start + n] += Float((0.3 * noise() + 0.3 * sin(2 * Double.pi * 200 * t)) * exp(-t / 0.05))
            }
        }
        // Hats: noise through a first difference (a high-pass), 30 ms long.
        for time in hatTimes {
            let start = Int(time * rate)
            var previous = 0.0
            for n in 0..<Int(0.03 * rate) {
                let value = noise()
                output[start + n] += Float(0.25 * (value - previous) * exp(-Double(n) / rate / 0.01))
                previous = value
            }
        }
        return (output, kickTimes, snareTimes, hatTimes)
    }
}
