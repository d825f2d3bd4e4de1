import Foundation
import Testing
import TestSupport

/// Accents end to end: `analyze --format onsets`, the jsonl envelope and accent, the config switch, and a
/// recording untouched by the sync offset.
@Suite struct AccentsCommandTests {
    let pattern = AccentSignals.pattern(seconds: 3)

    func onsetLines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init)
    }

    @Test func aFileAndTheSameAudioLiveGiveTheSameOnsets() throws {
        let dir = try TemporaryDirectory("accents-onsets")
        let wav = try dir.write("pattern.wav", Signals.wav(pattern.samples, channels: 1, sampleRate: 48_000))
        let offline = try LightshowProcess.run(["analyze", "--input", wav, "--format", "onsets"])
        #expect(offline.status == 0, "\(offline.stderr)")
        let lines = onsetLines(offline.stdout)
        // TIME BAND STRENGTH, each kick found in the bass within a frame.
        for line in lines {
            let fields = line.split(separator: " ")
            #expect(fields.count == 3, "\(line)")
            #expect(["bass", "mid", "treble"].contains(String(fields[1])))
            let strength = Double(fields[2]) ?? -1
            #expect(strength >= 0 && strength <= 1)
        }
        let bass = lines.filter { $0.contains(" bass ") }.compactMap { Double($0.split(separator: " ")[0]) }
        for kick in pattern.kicks { #expect(bass.contains { $0 > kick && $0 <= kick + 1.0 / 60 }, "kick at \(kick): \(bass)") }

        let live = try LightshowProcess.run(
            ["analyze", "--input", "-", "--format-pcm", "48000:16:1", "--format", "onsets"], stdin: Signals.s16le(pattern.samples)
        )
        #expect(live.status == 0, "\(live.stderr)")
        #expect(onsetLines(live.stdout) == lines)
    }

    @Test func jsonlCarriesEnvelopeAndAccentAndOffGivesTheEnvelope() throws {
        let dir = try TemporaryDirectory("accents-jsonl")
        let wav = try dir.write("pattern.wav", Signals.wav(pattern.samples, channels: 1, sampleRate: 48_000))
        func frames(_ config: String) throws -> [[String: Any]] {
            let path = try dir.write("lightshow.toml", Data(config.utf8))
            let result = try LightshowProcess.run(["analyze", "--config", path, "--input", wav, "--format", "jsonl"])
            #expect(result.status == 0, "\(result.stderr)")
            return try result.stdout.split(separator: "\n").map {
                try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }
        let on = try frames("")
        let off = try frames("[accents]\nenabled = false\n")
        let noHeadroom = try frames("[accents]\nheadroom = 0\n")
        #expect(on.count == off.count && on.count == 180 && noHeadroom.count == 180)
        var lifted = 0
        for ((with, without), full) in zip(zip(on, off), noHeadroom) {
            let envelope = try #require(with["envelope"] as? [String: Double])
            let accent = try #require(with["accent"] as? [String: Double])
            for band in ["bass", "mid", "treble"] {
                let level = try #require(with[band] as? Double)
                #expect(abs(level - max(envelope[band]!, accent[band]!)) < 0.0051)
                // Off: the level is the envelope, which accents show below full by the headroom (0.15 by default;
                // both printed to two places).
                let bare = try #require(without[band] as? Double)
                #expect(abs(bare * 0.85 - envelope[band]!) < 0.0095)
                #expect((full["envelope"] as? [String: Double])?[band] == bare)
                #expect((without["accent"] as? [String: Double])?[band] == 0)
                if level > envelope[band]! + 0.1 { lifted += 1 }
            }
        }
        // The kicks after the first (the gain has heard none before it) lift the bass at least.
        #expect(lifted >= pattern.kicks.count - 1)
    }

    @Test func aRecordingIgnoresTheSyncOffset() throws {
        let dir = try TemporaryDirectory("accents-record")
        let wav = try dir.write("pattern.wav", Signals.wav(Array(pattern.samples.prefix(48_000)), channels: 1, sampleRate: 48_000))
        var logs: [Data] = []
        for (name, delay) in [("plain", 0), ("late", 1500)] {
            let config = try dir.write("\(name).toml", Data("[output]\ndelay = \(delay)\n".utf8))
            let out = dir.file(name)
            let result = try LightshowProcess.run(["record", "--config", config, "--input", wav, "--out", out, "--size", "64x36"])
            #expect(result.status == 0, "\(result.stderr)")
            logs.append(try Data(contentsOf: URL(fileURLWithPath: out + "/frames.jsonl")))
        }
        #expect(!logs[0].isEmpty)
        #expect(logs[0] == logs[1])
    }
}
