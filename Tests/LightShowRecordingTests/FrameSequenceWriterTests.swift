import Foundation
import LightShowCore
import LightShowRecording
import Testing
import TestSupport

@Suite struct FrameSequenceWriterTests {
    private func frame(_ index: Int, fps: Double = 30) -> ShowFrame {
        let phase = Float(index % 10) / 10
        return ShowFrame(index: index, time: Double(index) / fps, levels: BandLevels(bass: phase, mid: 1 - phase, treble: 0.5), state: .playing, title: "Synthetic")
    }

    private func listing(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    }

    @Test func writesEveryFrameInOrderAndListsIt() async throws {
        let tmp = try TemporaryDirectory("writer")
        let out = try OutputDirectory(path: tmp.file("out"), force: false)
        let writer = try FrameSequenceWriter(directory: out, width: 160, height: 90, style: Scene.Style(), workers: 3)
        for index in 0..<45 { try await writer.submit(frame(index)) }
        #expect(try writer.finish() == 45)
        let names = try listing(out.path)
        #expect(names == (0..<45).map(OutputDirectory.frameName) + ["frames.jsonl"])
        let lines = try String(contentsOfFile: out.file("frames.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 45)
        for (index, line) in lines.enumerated() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["index"] as? Int == index)
            #expect(abs((object["t"] as? Double ?? -1) - Double(index) / 30) < 1e-4)
            #expect(object["state"] as? String == "playing")
            #expect(abs((object["bass"] as? Double ?? -1) - Double(frame(index).levels.bass)) < 1e-4)
        }
        for index in [0, 22, 44] {
            let png = try DecodedPNG(path: out.file(OutputDirectory.frameName(index)))
            #expect(png.width == 160 && png.height == 90)
        }
    }

    @Test func refusesANonEmptyDirectoryUnlessForced() throws {
        let tmp = try TemporaryDirectory("writer-dir")
        try tmp.write("frame_000099.png", Data([1, 2, 3]))
        try tmp.write("notes.txt", Data("keep".utf8))
        #expect(throws: RecordingError.self) { try OutputDirectory(path: tmp.path, force: false) }
        let forced = try OutputDirectory(path: tmp.path, force: true)
        #expect(try listing(forced.path) == ["notes.txt"], "an earlier recording's frames are cleared, other files kept")
        let file = try tmp.write("plain", Data())
        #expect(throws: RecordingError.self) { try OutputDirectory(path: file, force: true) }
    }

    /// A directory squatting on frame 12's temporary name makes that write fail for real (EISDIR, even as root).
    @Test func aWriteErrorStopsWithEveryEarlierFrameValidAndListed() async throws {
        let tmp = try TemporaryDirectory("writer-fail")
        let out = try OutputDirectory(path: tmp.file("out"), force: false)
        let blocker = out.file(OutputDirectory.temporaryName(12))
        try FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: false)
        let writer = try FrameSequenceWriter(directory: out, width: 160, height: 90, style: Scene.Style(), workers: 2)
        var submitError: RecordingError?
        for index in 0..<200 {
            do { try await writer.submit(frame(index)) } catch { submitError = error; break }
        }
        let finishError = #expect(throws: RecordingError.self) { try writer.finish() }
        let message = (finishError ?? submitError)?.message ?? ""
        #expect(message.contains(out.file("frame_000012.png")) && message.contains("12 complete frames"), "message: \(message)")
        #expect(finishError?.exitStatus == .ioError)
        try FileManager.default.removeItem(atPath: blocker)
        let names = try listing(out.path)
        #expect(names == (0..<12).map(OutputDirectory.frameName) + ["frames.jsonl"], "no temporaries, no frames past the failure")
        let lines = try String(contentsOfFile: out.file("frames.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 12)
        for index in 0..<12 { _ = try DecodedPNG(path: out.file(OutputDirectory.frameName(index))) }
    }
}
