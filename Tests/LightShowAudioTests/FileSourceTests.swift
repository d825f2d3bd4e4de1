import Foundation
@testable import LightShowAudio
import LightShowCore
import Testing
import TestSupport

@Suite struct FileSourceTests {
    @Test func wavStereoIsReadWholeAndInOrder() async throws {
        let dir = try TemporaryDirectory()
        let tone = Signals.sine(frequency: 440, seconds: 1, sampleRate: 44_100)
        let path = try dir.write("tone.wav", Signals.wav(Signals.interleave(tone, channels: 2), channels: 2, sampleRate: 44_100))
        let source = try AudioSources.open(.file(path: path))
        #expect(source.sampleRate == 44_100)
        #expect(source.channels == 2)
        #expect(!source.isLive)
        let collector = BlockCollector(source)
        #expect(await collector.waitForEnd())
        #expect(collector.error == nil)
        let blocks = collector.blocks
        #expect(collector.frameCount == 44_100)
        var expectedStart: Int64 = 0
        for block in blocks {
            #expect(block.startFrame == expectedStart)
            #expect(block.captureTimeNanoseconds == nil, "offline blocks carry no capture time")
            expectedStart += Int64(block.frameCount)
        }
        let left = Spectrum.channel(0, of: collector.samples, channels: 2)
        let maxError = zip(left, tone).map { abs($0 - $1) }.max() ?? 1
        #expect(maxError < 1.0 / 16_000, "decoded samples match the written ones")
        #expect(source.statistics.framesDelivered == 44_100)
        #expect(source.statistics.state == .finished)
    }

    @Test(arguments: ["wav", "flac", "ogg"])
    func monoFormatsDecode(_ format: String) async throws {
        let dir = try TemporaryDirectory()
        let tone = Signals.sine(frequency: 1_000, seconds: 0.5, sampleRate: 48_000)
        let wav = try dir.write("tone.wav", Signals.wav(tone, channels: 1, sampleRate: 48_000))
        var path = wav
        if format != "wav" {
            path = dir.file("tone.\(format)")
            try await ExternalTool.runDetached("sox", [wav, path])
        }
        let source = try AudioSources.open(.file(path: path))
        #expect(source.sampleRate == 48_000)
        #expect(source.channels == 1)
        let collector = BlockCollector(source)
        #expect(await collector.waitForEnd())
        #expect(collector.error == nil)
        #expect(abs(collector.frameCount - 24_000) <= 1_024, "\(format): \(collector.frameCount) frames")
        let samples = collector.samples
        #expect(abs(Spectrum.dominantFrequency(samples, sampleRate: 48_000) - 1_000) < 30)
        #expect(abs(Spectrum.rms(samples) - 0.5 / 2.0.squareRoot()) < 0.03)
    }

    @Test func manyChannelsPassThrough() async throws {
        let dir = try TemporaryDirectory()
        let tone = Signals.sine(frequency: 200, seconds: 0.2, sampleRate: 22_050)
        let path = try dir.write("quad.wav", Signals.wav(Signals.interleave(tone, channels: 4), channels: 4, sampleRate: 22_050))
        let source = try AudioSources.open(.file(path: path))
        #expect(source.channels == 4)
        #expect(source.sampleRate == 22_050)
        let collector = BlockCollector(source)
        #expect(await collector.waitForEnd())
        #expect(collector.frameCount == tone.count)
        var mono: [Float] = []
        collector.blocks.first?.downmix(into: &mono)
        #expect(abs((mono.dropFirst(10).first ?? 0) - tone[10]) < 1.0 / 16_000)
    }

    @Test func bareSpecIsAFile() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("a.wav", Signals.wav(Signals.sine(frequency: 100, seconds: 0.1), channels: 1, sampleRate: 48_000))
        guard let spec = InputSpec(parsing: path) else { Issue.record("bare path not parsed"); return }
        let source = try AudioSources.open(spec)
        #expect(source is FileSource)
    }

    @Test func missingFileIsInputNotFound() {
        let error = openError(.file(path: "/nonexistent/song.flac"))
        #expect(error?.exitStatus == .noInput)
        #expect(error?.message.contains("/nonexistent/song.flac") == true)
        #expect(error?.message.contains("not found") == true)
    }

    @Test func directoryIsInputNotFound() throws {
        let dir = try TemporaryDirectory()
        let error = openError(.file(path: dir.path))
        #expect(error?.exitStatus == .noInput)
        #expect(error?.message.contains("directory") == true)
    }

    @Test func garbageIsBadData() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("song.wav", Data("this is not audio at all, just some text".utf8))
        let error = openError(.file(path: path))
        #expect(error?.exitStatus == .dataError)
        #expect(error?.message.contains(path) == true)
        #expect(error?.message.contains("expected a WAV, FLAC or OGG audio file") == true)
    }

    @Test func emptyFileIsBadData() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("empty.wav", Data())
        let error = openError(.file(path: path))
        #expect(error?.exitStatus == .dataError)
        #expect(error?.message.contains("expected a WAV, FLAC or OGG audio file") == true)
    }

    @Test func zeroLengthAudioIsBadData() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("silent.wav", Signals.wav([], channels: 2, sampleRate: 44_100))
        let error = openError(.file(path: path))
        #expect(error?.exitStatus == .dataError)
        #expect(error?.message.contains("zero length") == true)
    }

    /// A float WAV is outside data like any other: NaN and infinities arrive as silence and 1e30 as full scale,
    /// as raw float PCM does, so nothing past ±1 reaches the analysis.
    @Test func floatSamplesAreMadeSafe() async throws {
        let dir = try TemporaryDirectory()
        let samples: [Float] = [0.5, .nan, .infinity, -.infinity, 1e30, -0.25]
        var data = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + 4 * samples.count))
        // IEEE float (format 3), mono, 8 kHz, 32 bits.
        data.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16); u16(3); u16(1)
        u32(8_000); u32(32_000); u16(4); u16(32)
        data.append(contentsOf: Array("data".utf8)); u32(UInt32(4 * samples.count))
        for sample in samples { u32(sample.bitPattern) }
        let path = try dir.write("float.wav", data)
        let collector = BlockCollector(try AudioSources.open(.file(path: path)))
        #expect(await collector.waitForEnd())
        #expect(collector.samples == [0.5, 0, 0, 0, 1, -0.25])
    }

    /// The file is checked on what was opened, not only by its path: a fifo put in its place after the path was
    /// checked is refused at once (libsndfile's own open of a fifo waits for a writer for ever).
    @Test func aFifoInPlaceOfTheFileIsRefusedWithoutWaiting() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("song.wav")
        #expect(mkfifo(path, 0o600) == 0)
        #expect {
            _ = try SndFile(path: path, spec: .file(path: path), expected: "a WAV, FLAC or OGG audio file")
        } throws: { error in
            (error as? LightShowError)?.message.contains("not a regular file") == true
        }
    }

    @Test func truncatedFileReadsWhatIsThere() async throws {
        let dir = try TemporaryDirectory()
        let whole = Signals.wav(Signals.sine(frequency: 300, seconds: 1, sampleRate: 48_000), channels: 1, sampleRate: 48_000)
        let path = try dir.write("cut.wav", whole.prefix(44 + 2 * 12_000))
        let source = try AudioSources.open(.file(path: path))
        let collector = BlockCollector(source)
        #expect(await collector.waitForEnd())
        #expect(collector.frameCount == 12_000, "the frames present, no more and no garbage")
        if let error = collector.error as? LightShowError {
            #expect(error.exitStatus == .dataError)
        }
    }

    @Test func realtimePacingFollowsTheClock() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("t.wav", Signals.wav(Signals.sine(frequency: 100, seconds: 0.6), channels: 1, sampleRate: 48_000))
        let started = Date()
        let source = try AudioSources.open(.file(path: path), pacing: .realtime)
        #expect(source.isLive)
        let collector = BlockCollector(source)
        #expect(await collector.waitForEnd())
        #expect(Date().timeIntervalSince(started) >= 0.55, "0.6 s of audio takes at least about 0.6 s")
        #expect(collector.frameCount == 28_800)
        #expect(collector.blocks.allSatisfy { $0.captureTimeNanoseconds != nil && $0.frameCount <= 240 })
    }

    @Test func offlineReadingIsUnpaced() async throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("t.wav", Signals.wav(Signals.sine(frequency: 100, seconds: 5), channels: 1, sampleRate: 48_000))
        let collector = BlockCollector(try AudioSources.open(.file(path: path), pacing: .offline))
        #expect(await collector.waitForEnd())
        #expect(collector.frameCount == 240_000)
        // Big blocks with no capture time: read as fast as the consumer takes them, not paced to the clock
        // (a wall-clock bound would only measure how busy the test machine is).
        #expect(collector.blocks.allSatisfy { $0.captureTimeNanoseconds == nil })
        #expect(collector.blocks.dropLast().allSatisfy { $0.frameCount == 4_096 })
    }
}
