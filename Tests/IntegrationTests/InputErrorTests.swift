import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Every bad input gets one line naming it, what was expected, and the exit code the README lists ("Exit codes").
@Suite struct InputErrorTests {
    private func analyze(_ input: String, _ extra: [String] = [], environment: [String: String] = [:]) throws -> LightshowProcess.Result {
        try LightshowProcess.run(["analyze", "--input", input] + extra, environment: environment)
    }

    private func expectOneLineError(_ result: LightshowProcess.Result, status: Int32, mentions: [String]) {
        #expect(result.status == status, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(result.stderr)")
        for text in mentions { #expect(result.stderr.contains(text), "\(result.stderr) should mention \(text)") }
    }

    @Test func missingFile() throws {
        expectOneLineError(try analyze("/nonexistent/song.flac"), status: 66, mentions: ["/nonexistent/song.flac", "not found"])
    }

    @Test func corruptFile() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("song.ogg", Data((0..<4_000).map { UInt8(truncatingIfNeeded: $0 &* 37) }))
        expectOneLineError(try analyze("file:\(path)"), status: 65, mentions: [path, "expected a WAV, FLAC or OGG audio file"])
    }

    @Test func zeroLengthAudio() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("empty.wav", Signals.wav([], channels: 2, sampleRate: 44_100))
        expectOneLineError(try analyze(path), status: 65, mentions: [path, "zero length"])
    }

    @Test func zeroByteFile() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write("nothing.flac", Data())
        expectOneLineError(try analyze(path), status: 65, mentions: [path, "expected a WAV, FLAC or OGG audio file"])
    }

    @Test func truncatedFileGivesWhatIsThere() throws {
        let dir = try TemporaryDirectory()
        let whole = Signals.wav(Signals.sine(frequency: 1_000, seconds: 2, sampleRate: 48_000), channels: 1, sampleRate: 48_000)
        let path = try dir.write("cut.wav", whole.prefix(44 + 2 * 48_000))
        let result = try analyze(path, ["--format", "ascii"])
        // One second is there: 60 frames at 60 fps, and no crash.
        #expect(result.status == 0 || result.status == 65, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 60)
    }

    @Test func missingFifo() throws {
        expectOneLineError(try analyze("fifo:/nonexistent/mpd.fifo"), status: 66, mentions: ["fifo:/nonexistent/mpd.fifo", "expected a fifo"])
    }

    @Test func fifoThatIsADirectory() throws {
        let dir = try TemporaryDirectory()
        expectOneLineError(try analyze("fifo:\(dir.path)"), status: 66, mentions: [dir.path, "directory"])
    }

    @Test func unknownALSADeviceSuggestsDevices() throws {
        expectOneLineError(try analyze("alsa:no_such_device"), status: 66, mentions: ["alsa:no_such_device", "lightshow devices"])
    }

    @Test func fifoTonesLightTheirBand() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("mpd.fifo")
        #expect(mkfifo(path, 0o600) == 0)
        let tone = Signals.interleave(Signals.sine(frequency: 100, seconds: 2, sampleRate: 44_100), channels: 2)
        let pcm = Signals.s16le(tone)
        Thread.detachNewThread {
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            handle.write(pcm)
            try? handle.close()
        }
        let result = try analyze("fifo:\(path)", ["--format", "ascii"])
        #expect(result.status == 0, "\(result.stderr)")
        let last = result.stdout.split(separator: "\n").last.map { $0.split(separator: ";").compactMap { Int($0) } } ?? []
        #expect(last.count == 3)
        if last.count == 3 {
            #expect(last[0] >= 800 && last[1] <= 100 && last[2] <= 100, "\(last)")
        }
    }
}
