import Foundation
import LightShowAudio
import LightShowCore
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `audio.wav` as a recording leaves it: a plain RIFF WAVE of floats while its sizes fit in 32 bits, RF64 past
/// 4 GiB; a final header that can't be written is an error, not a file claiming no audio.
@Suite struct WAVFileWriterTests {
    /// A block of `frames` stereo frames with distinct samples.
    private func block(frames: Int, from start: Int64 = 0) -> SampleBlock {
        SampleBlock(
            samples: (0..<frames * 2).map { Float($0 % 1000) / 1000 - 0.5 }, channels: 2, sampleRate: 48_000,
            startFrame: start
        )
    }

    private func bytes(_ path: String, count: Int = Int.max) throws -> [UInt8] {
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        return [UInt8](try handle.read(upToCount: count) ?? Data())
    }

    private func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
    }

    private func le64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * $1) }
    }

    private func tag(_ bytes: [UInt8], _ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }

    /// The chunks after the 12-byte RIFF/RF64 header: id, offset of the payload, and the 32-bit size field.
    private func chunks(_ bytes: [UInt8]) -> [(id: String, offset: Int, size: UInt32)] {
        var found: [(String, Int, UInt32)] = []
        var at = 12
        while at + 8 <= bytes.count {
            let size = le32(bytes, at + 4)
            found.append((tag(bytes, at), at + 8, size))
            if size == 0xFFFF_FFFF { break }  // RF64's data: its size is in ds64
            at += 8 + Int(size) + Int(size & 1)
        }
        return found
    }

    /// The temporary the writer has open, so a test can make it long or make its writes fail.
    private func temporary(of path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".tmp").path
    }

    /// The descriptors of this process open on `path`.
    private func descriptors(on path: String) throws -> [Int32] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { name in
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)
            return target == path ? Int32(name) : nil
        }
    }

    /// A final header that can't be written (a full disk on a copy-on-write filesystem) used to go unnoticed:
    /// libsndfile's close ignores it, and the file went into place claiming no audio. Here the writer's
    /// descriptor is swapped for a read-only one on the same file, so only writes fail.
    @Test func aFinalHeaderThatCantBeWrittenIsReportedAndNothingGoesIntoPlace() throws {
        let dir = try TemporaryDirectory("wav-writer-header")
        let path = dir.file("audio.wav")
        let writer = try WAVFileWriter(path: path, sampleRate: 48_000, channels: 2)
        try writer.write(block(frames: 1000))
        let temporary = temporary(of: path)
        let writers = try descriptors(on: temporary)
        try #require(writers.count == 1, "\(writers)")
        let readOnly = open(temporary, O_RDONLY | O_CLOEXEC)
        try #require(readOnly >= 0)
        #expect(dup2(readOnly, writers[0]) == writers[0])
        close(readOnly)
        let error = try #require(throws: LightShowError.self) { try writer.finish() }
        #expect(error.message.contains("cannot write \(path)"), "\(error.message)")
        #expect(error.exitStatus == .ioError)
        #expect(!FileManager.default.fileExists(atPath: path), "no audio.wav claiming no audio")
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }

    /// A format libsndfile refuses: an error naming the file, no temporary left, and no descriptor on it.
    @Test func aFormatLibsndfileRefusesLeavesNothingOpenOrBehind() throws {
        let dir = try TemporaryDirectory("wav-writer-refused")
        let path = dir.file("audio.wav")
        let error = try #require(throws: LightShowError.self) {
            _ = try WAVFileWriter(path: path, sampleRate: 48_000, channels: 0)
        }
        #expect(error.message.contains("cannot write \(path)"), "\(error.message)")
        #expect(!FileManager.default.fileExists(atPath: temporary(of: path)))
        #expect(try descriptors(on: temporary(of: path)).isEmpty && descriptors(on: temporary(of: path) + " (deleted)").isEmpty)
    }
}
