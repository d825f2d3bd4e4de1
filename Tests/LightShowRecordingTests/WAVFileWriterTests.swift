import Foundation
import LightShowRecording
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

    @Test func aShortRecordingIsAPlainRIFFWaveOfFloats() throws {
        let dir = try TemporaryDirectory("wav-writer")
        let path = dir.file("audio.wav")
        let writer = try WAVFileWriter(path: path, sampleRate: 48_000, channels: 2)
        let written = block(frames: 1000)
        try writer.write(written)
        try writer.finish()
        let file = try bytes(path)
        #expect(tag(file, 0) == "RIFF" && tag(file, 8) == "WAVE")
        #expect(Int(le32(file, 4)) == file.count - 8, "the RIFF size is the file's")
        let list = chunks(file)
        #expect(!list.contains { $0.id == "ds64" })
        let format = try #require(list.first { $0.id == "fmt " })
        let formatTag = le32(file, format.offset) & 0xFFFF
        // IEEE float, said directly or as WAVE_FORMAT_EXTENSIBLE's sub-format.
        let subFormat = formatTag == 0xFFFE ? le32(file, format.offset + 24) & 0xFFFF : formatTag
        #expect(subFormat == 3, "float samples, format tag \(formatTag)")
        #expect(le32(file, format.offset) >> 16 == 2, "two channels")
        #expect(le32(file, format.offset + 4) == 48_000)
        let data = try #require(list.first { $0.id == "data" })
        #expect(data.size == 1000 * 2 * 4)
        let samples = (0..<2000).map { Float(bitPattern: le32(file, data.offset + 4 * $0)) }
        #expect(samples == written.samples, "the samples exactly as written")
        #expect(!FileManager.default.fileExists(atPath: temporary(of: path)))
    }

    /// Past 4 GiB a RIFF header's sizes wrap, and the file claims almost no audio. Writing 4 GiB is too slow for a
    /// test, so the temporary is made that long sparsely: libsndfile sizes the final header from the file's length.
    @Test func pastFourGiBTheHeaderIsRF64WithTheWholeLength() throws {
        let dir = try TemporaryDirectory("wav-writer-rf64")
        let path = dir.file("audio.wav")
        let writer = try WAVFileWriter(path: path, sampleRate: 48_000, channels: 2)
        try writer.write(block(frames: 1000))
        let length: off_t = (4 << 30) + (1 << 20)
        let fd = open(temporary(of: path), O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0)
        #expect(ftruncate(fd, length) == 0)
        close(fd)
        try writer.finish()
        let file = try bytes(path, count: 4096)
        #expect(tag(file, 0) == "RF64" && le32(file, 4) == 0xFFFF_FFFF && tag(file, 8) == "WAVE", "\(tag(file, 0))")
        let list = chunks(file)
        let ds64 = try #require(list.first { $0.id == "ds64" })
        let data = try #require(list.first { $0.id == "data" })
        #expect(le64(file, ds64.offset) == UInt64(length) - 8, "the 64-bit RIFF size")
        #expect(le64(file, ds64.offset + 8) == UInt64(length) - UInt64(data.offset), "the 64-bit data size")
        #expect(le64(file, ds64.offset + 16) == (UInt64(length) - UInt64(data.offset)) / 8, "the frame count")
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
