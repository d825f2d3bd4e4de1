import Foundation
import Testing
import TestSupport

/// `lightshow analyze` end to end: the real executable on generated audio.
@Suite struct AnalyzeCommandTests {
    @Test(arguments: ["0", "0.5", "241", "1000", "nan"])
    func fpsOutsideTheRangeIsAUsageError(fps: String) throws {
        let result = try LightshowProcess.run(["analyze", "--input", "demo", "--fps", fps])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--fps"))
        #expect(result.stderr.contains("between 1 and 240"))
        #expect(result.stdout.isEmpty)
    }

    @Test func badInputSpecIsAUsageError() throws {
        let result = try LightshowProcess.run(["analyze", "--input", "fifo:"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--input 'fifo:'"))
        #expect(result.stderr.contains("expected"))
    }

    @Test func badPCMFormatIsAUsageError() throws {
        let result = try LightshowProcess.run(["analyze", "--input", "-", "--format-pcm", "44100:12:2"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--format-pcm '44100:12:2'"))
        #expect(result.stderr.contains("RATE:BITS:CHANNELS"))
    }

    @Test func aWAVFileGivesOneJSONLineperFrame() throws {
        let dir = try TemporaryDirectory()
        let tone = Signals.sine(frequency: 1000, seconds: 2, sampleRate: 44_100, amplitude: 0.5)
        let path = try dir.write("tone.wav", Signals.wav(Signals.interleave(tone, channels: 2), channels: 2, sampleRate: 44_100))
        let result = try LightshowProcess.run(["analyze", "--input", path, "--fps", "30"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 60)
        let last = try #require(lines.last.map(String.init))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(abs((object["t"] as? Double ?? 0) - 2) < 1e-3)
        #expect((object["mid"] as? Double ?? 0) >= 0.8)
        #expect((object["bass"] as? Double ?? 1) <= 0.1)
        #expect(object["state"] as? String == "playing")
    }

    @Test func asciiAndCSVFromStdin() throws {
        let tone = Signals.sine(frequency: 60, seconds: 1, sampleRate: 48_000, amplitude: 0.5)
        let pcm = Signals.s16le(Signals.interleave(tone, channels: 2))
        let ascii = try LightshowProcess.run(["analyze", "--input", "-", "--format-pcm", "48000:16:2", "--format", "ascii"], stdin: pcm)
        #expect(ascii.status == 0, "\(ascii.stderr)")
        let rows = ascii.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(rows.count == 60)
        for row in rows {
            // cava's raw ascii: each bar ends with ';'.
            let fields = row.split(separator: ";", omittingEmptySubsequences: false)
            #expect(fields.count == 4 && fields[3].isEmpty, "\(row)")
            #expect(fields.prefix(3).allSatisfy { Int($0).map { (0...1000).contains($0) } ?? false }, "\(row)")
        }
        #expect(rows.last.flatMap { Int($0.split(separator: ";")[0]) } ?? 0 >= 800)

        let csv = try LightshowProcess.run(["analyze", "--input", "stdin", "--format-pcm", "48000:16:2", "--format", "csv"], stdin: pcm)
        #expect(csv.status == 0, "\(csv.stderr)")
        let csvLines = csv.stdout.split(separator: "\n")
        #expect(csvLines.first == "t,bass,mid,treble,state")
        #expect(csvLines.count == 61)
    }

    @Test func aClosedStdoutEndsQuietly() throws {
        // `| head` closes the pipe after five lines; analyze must stop without an error or a signal death.
        let binary = LightshowProcess.executableURL.path
        let result = try Launch.run(
            ["/bin/bash", "-c", "'\(binary)' analyze --input demo --format ascii | head -n 5 >/dev/null; echo \"${PIPESTATUS[0]}\""]
        )
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }
}
