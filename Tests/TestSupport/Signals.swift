import Foundation
import LightShowCore

/// Known test signals, generated in the test rather than shipped as fixtures.
public enum Signals {
    /// A sine at `frequency` Hz, `amplitude` peak (1 = full scale), mono.
    public static func sine(frequency: Double, seconds: Double, sampleRate: Int = 48_000, amplitude: Double = 0.5) -> [Float] {
        let count = Int(seconds * Double(sampleRate))
        let step = 2 * Double.pi * frequency / Double(sampleRate)
        return (0..<count).map { Float(amplitude * sin(step * Double($0))) }
    }

    /// Digital silence, mono.
    public static func silence(seconds: Double, sampleRate: Int = 48_000) -> [Float] {
        [Float](repeating: 0, count: Int(seconds * Double(sampleRate)))
    }

    /// White noise with the given RMS level in dBFS, from a fixed seed so runs repeat.
    public static func noise(dbfs: Double, seconds: Double, sampleRate: Int = 48_000, seed: UInt64 = 0x5EED) -> [Float] {
        var state = seed
        let rms = pow(10, dbfs / 20)
        // Uniform in −a…a has RMS a/√3.
        let a = rms * 3.0.squareRoot()
        return (0..<Int(seconds * Double(sampleRate))).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let unit = Double(state >> 11) / Double(1 << 53)
            return Float((unit * 2 - 1) * a)
        }
    }

    /// Repeats each mono sample across `channels`.
    public static func interleave(_ mono: [Float], channels: Int) -> [Float] {
        guard channels > 1 else { return mono }
        var out = [Float]()
        out.reserveCapacity(mono.count * channels)
        for sample in mono { for _ in 0..<channels { out.append(sample) } }
        return out
    }

    /// Little-endian signed 16-bit PCM bytes of interleaved samples.
    public static func s16le(_ samples: [Float]) -> Data {
        var data = Data(capacity: samples.count * 2)
        for sample in samples {
            let value = Int16(max(-32768, min(32767, (Double(sample) * 32767).rounded())))
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// A 16-bit PCM WAV file holding interleaved `samples`.
    public static func wav(_ samples: [Float], channels: Int, sampleRate: Int) -> Data {
        let pcm = s16le(samples)
        var data = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + pcm.count))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16); u16(1); u16(UInt16(channels))
        u32(UInt32(sampleRate)); u32(UInt32(sampleRate * channels * 2)); u16(UInt16(channels * 2)); u16(16)
        data.append(contentsOf: Array("data".utf8)); u32(UInt32(pcm.count))
        data.append(pcm)
        return data
    }
}

extension Signals {
    /// Little-endian raw PCM bytes of interleaved samples in any `--format-pcm` encoding.
    public static func pcm(_ samples: [Float], encoding: PCMFormat.Encoding) -> Data {
        if encoding == .signed16 { return s16le(samples) }
        var data = Data(capacity: samples.count * encoding.bytesPerSample)
        for sample in samples {
            let clamped = Double(max(-1, min(1, sample)))
            switch encoding {
            case .signed16:
                break
            case .signed24:
                let value = Int32(max(-8_388_608, min(8_388_607, (clamped * 8_388_607).rounded())))
                withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0.prefix(3)) }
            case .signed32:
                let value = Int32(max(-2_147_483_648, min(2_147_483_647, (clamped * 2_147_483_647).rounded())))
                withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
            case .float32:
                withUnsafeBytes(of: sample.bitPattern.littleEndian) { data.append(contentsOf: $0) }
            }
        }
        return data
    }
}
