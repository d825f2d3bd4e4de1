#if canImport(Glibc)
import Glibc
#endif

/// The built-in demo track: a kick in the bass, chords in the mid and hi-hats in the treble, 120 BPM, 48 kHz stereo.
///
/// Every sample is a pure function of its frame index, so the track is deterministic and any stretch renders alike.
/// The 16-second loop gives each band its own rests so the three lights move independently:
/// bar 7 drops the kick, bar 8 drops the chords and bar 5 drops the hats.
public struct DemoSynth: Sendable {
    public static let sampleRate = 48_000
    public static let channels = 2

    private static let beat = 0.5
    private static let barBeats = 4
    private static let loopBars = 8
    /// Chord tones per bar (Am, F, C, G), kept above 250 Hz so they light the mid band alone.
    private static let chords: [[Double]] = [
        [440.0, 523.25, 659.26], [349.23, 440.0, 523.25], [392.0, 523.25, 659.26], [392.0, 493.88, 587.33],
    ]

    public init() {}

    /// Writes `frameCount` interleaved stereo frames starting at frame `start` into `output`.
    public func render(from start: Int64, frameCount: Int, into output: inout [Float]) {
        output.removeAll(keepingCapacity: true)
        output.reserveCapacity(frameCount * Self.channels)
        for offset in 0..<frameCount {
            let (left, right) = frame(at: start + Int64(offset))
            output.append(left)
            output.append(right)
        }
    }

    /// One stereo frame.
    public func frame(at index: Int64) -> (Float, Float) {
        let t = Double(index) / Double(Self.sampleRate)
        let beatNumber = Int(t / Self.beat)
        let sinceBeat = t - Double(beatNumber) * Self.beat
        let bar = (beatNumber / Self.barBeats) % Self.loopBars
        let beatInBar = beatNumber % Self.barBeats

        let kick = bar == 6 || (bar == 3 && beatInBar == 3) ? 0 : Self.kick(sinceBeat)
        let chord = bar == 7 ? 0 : Self.chord(bar: bar, beatInBar: beatInBar, sinceBeat: sinceBeat, t: t)
        let hat = bar == 4 ? 0 : Self.hat(index: index, t: t, beatInBar: beatInBar)

        let left = 0.35 * kick + 0.6 * chord + 0.4 * hat
        let right = 0.35 * kick + 0.4 * chord + 0.6 * hat
        return (Float(max(-1, min(1, left))), Float(max(-1, min(1, right))))
    }

    /// A sine that sweeps from 120 Hz down to 45 Hz, with a 1 ms fade-in so the attack doesn't click into the treble.
    private static func kick(_ time: Double) -> Double {
        let sweep = 0.03
        let phase = 2 * Double.pi * (45 * time + 75 * sweep * (1 - exp(-time / sweep)))
        let envelope = min(1, time / 0.001) * exp(-time / 0.18)
        return sin(phase) * envelope
    }

    /// A triad with four harmonics per tone, struck on beats 1 and 3 and faded out before the next chord.
    private static func chord(bar: Int, beatInBar: Int, sinceBeat: Double, t: Double) -> Double {
        let sinceStrike = sinceBeat + (beatInBar % 2 == 1 ? beat : 0)
        let untilBarEnd = Double(barBeats - beatInBar) * beat - sinceBeat
        let envelope = min(1, sinceStrike / 0.005) * (0.25 + 0.75 * exp(-sinceStrike / 0.25)) * min(1, untilBarEnd / 0.03)
        var sum = 0.0
        for frequency in chords[bar % chords.count] {
            sum += Self.voice(cycle: frequency * t)
        }
        return sum * envelope * 0.16
    }

    /// One cycle of a tone with four harmonics (1, 1/2, 1/3, 1/4), tabulated once: a lookup per sample is far
    /// cheaper than four sines, which keeps the real-time demo light.
    private static let voiceTable: [Double] = (0...4_096).map { index in
        let x = 2 * Double.pi * Double(index) / 4_096
        return (1...4).reduce(0.0) { $0 + sin(x * Double($1)) / Double($1) }
    }

    /// The tabulated voice at `cycle` periods from time zero, linearly interpolated.
    private static func voice(cycle: Double) -> Double {
        let position = (cycle - cycle.rounded(.down)) * 4_096
        let index = min(Int(position), 4_095)
        let fraction = position - Double(index)
        return voiceTable[index] + (voiceTable[index + 1] - voiceTable[index]) * fraction
    }

    /// Hashed white noise through a second difference (a high-pass), on every eighth note; an open hat before beat 1.
    private static func hat(index: Int64, t: Double, beatInBar: Int) -> Double {
        let eighth = beat / 2
        let sinceHit = t.truncatingRemainder(dividingBy: eighth)
        let isOpen = beatInBar == 3 && t.truncatingRemainder(dividingBy: beat) >= eighth
        let decay = isOpen ? 0.15 : 0.04
        let offBeat = t.truncatingRemainder(dividingBy: beat) >= eighth
        let envelope = min(1, sinceHit / 0.0005) * exp(-sinceHit / decay) * (offBeat ? 1 : 0.6)
        let highPassed = noise(index) - 2 * noise(index - 1) + noise(index - 2)
        return highPassed * 0.6 * envelope
    }

    /// Deterministic noise in −1…1 from the frame index (splitmix64).
    private static func noise(_ index: Int64) -> Double {
        var z = UInt64(bitPattern: index) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 52) - 1
    }
}
