import Foundation
import LightShowCore
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `record` stopped from outside: a write error partway through, and Ctrl-C on a live input.
/// Either way every frame on disk decodes, all are listed, and no temporary file is left.
@Suite struct RecordInterruptionTests {
    private func contents(_ dir: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    }

    /// Checks the directory is a consistent recording and returns its frame count.
    private func expectConsistent(_ dir: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let names = try contents(dir)
        let frames = names.filter { $0.hasPrefix("frame_") }
        #expect(names.allSatisfy { !$0.hasSuffix(".tmp") }, "no temporary files: \(names.filter { $0.hasSuffix(".tmp") })", sourceLocation: sourceLocation)
        let lines = try String(contentsOfFile: dir + "/frames.jsonl", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "the log ends with a whole line", sourceLocation: sourceLocation)
        #expect(lines.count - 1 == frames.count, "every frame listed, nothing else", sourceLocation: sourceLocation)
        for (index, name) in frames.enumerated() {
            #expect(name == String(format: "frame_%06d.png", index), sourceLocation: sourceLocation)
            _ = try DecodedPNG(path: dir + "/" + name)
            #expect(lines[index].hasPrefix("{\"index\":\(index),"), sourceLocation: sourceLocation)
        }
        return frames.count
    }

    /// A file-size limit (RLIMIT_FSIZE, set with util-linux's `prlimit`) makes a frame's write fail with EFBIG partway:
    /// the frames grow as the lights come up, and the limit sits between a dark frame and a lit one.
    @Test func aWriteErrorPartwayStopsWithExit74AndLeavesValidFrames() throws {
        let dir = try TemporaryDirectory("record-efbig")
        // 8 kHz mono keeps audio.wav (32 KB/s as float, 32 KB in all) under the 48 KB limit. At 2560x1440 a dark
        // frame of the first half second is about 36 KB, a lit one of the noise after it about 72 KB.
        let mono = Signals.silence(seconds: 0.5, sampleRate: 8000) + Signals.noise(dbfs: -6, seconds: 0.5, sampleRate: 8000)
        let input = try dir.write("input.wav", Signals.wav(mono, channels: 1, sampleRate: 8000))
        let out = dir.file("out")
        let result = try Launch.run([
            "/usr/bin/prlimit", "--fsize=49152", LightshowProcess.executableURL.path, "record", "--input", input, "--out", out,
            "--size", "2560x1440", "--fps", "20",
        ])
        let stderr = result.stderr
        #expect(result.status == 74, "exit \(result.status): \(stderr)")
        #expect(stderr.contains("cannot write \(out)/frame_0000") && stderr.contains("File too large"), "a frame's write failed: \(stderr)")
        #expect(stderr.contains("recording stopped"), "message: \(stderr)")
        let frames = try expectConsistent(out)
        #expect(frames >= 5 && frames < 20, "stopped partway: \(frames) frames")
        #expect(stderr.contains("\(frames) complete frames"), "message counts the frames: \(stderr)")
    }

    /// Data reaches the disk after the recording's last write, so a disk that can't take it fails write-back, which
    /// close() never reports: ext4 on a loop device whose image lives on a 2 MB tmpfs, given about 5 MB of frames
    /// (audio.wav, synced on its own, is small enough to fit). The recording's end syncs the filesystem and reports
    /// the failure; it used to exit 0. Needs root, for the mounts.
    @Test func aWriteBackErrorAtTheEndIsReported() throws {
        let dir = try TemporaryDirectory("record-writeback")
        let backing = dir.file("backing"), mountPoint = dir.file("mnt")
        for path in [backing, mountPoint] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        try ExternalTool.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", backing])
        defer { _ = try? ExternalTool.run("/usr/bin/umount", [backing]) }
        try ExternalTool.run("/usr/bin/truncate", ["-s", "64M", backing + "/ext4.img"])
        try ExternalTool.run("/usr/sbin/mkfs.ext4", ["-q", backing + "/ext4.img"])
        try ExternalTool.run("/usr/bin/mount", ["-o", "loop", backing + "/ext4.img", mountPoint])
        defer { _ = try? ExternalTool.run("/usr/bin/umount", [mountPoint]) }
        let mono = Signals.noise(dbfs: -6, seconds: 8, sampleRate: 8000)
        let input = try dir.write("input.wav", Signals.wav(mono, channels: 1, sampleRate: 8000))
        let out = mountPoint + "/out"
        let result = try LightshowProcess.run(["record", "--input", input, "--out", out, "--size", "1280x720", "--fps", "20"])
        #expect(result.status == 74, "exit \(result.status): \(result.stderr)")
        // The lost write-back itself (EIO), or ext4 having remounted itself read-only over it (errors=remount-ro)
        // before the end's sync: which one the sync meets depends on when the kernel flushed.
        let diskFailed = result.stderr.contains("Input/output error") || result.stderr.contains("Read-only file system")
        #expect(result.stderr.contains("cannot write \(out): ") && diskFailed, "\(result.stderr)")
    }

    @Test func ctrlCEndsALiveRecordingWithCompleteFiles() async throws {
        let dir = try TemporaryDirectory("record-sigint")
        let fifo = dir.file("pcm.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let out = dir.file("out")
        let err = Pipe()
        let process = try Launch.start(
            [LightshowProcess.executableURL.path, "record", "--input", "fifo:" + fifo, "--format-pcm", "8000:16:1", "--out", out,
             "--size", "64x36", "--fps", "10"],
            standardError: err
        )
        // Opening blocks until lightshow opens its end; then 3 s of tone arrive at once.
        let writer = try #require(FileHandle(forWritingAtPath: fifo))
        writer.write(Signals.s16le(Signals.sine(frequency: 100, seconds: 3, sampleRate: 8000)))
        try await waitFor("30 frames listed", timeout: 60) {
            ((try? String(contentsOfFile: out + "/frames.jsonl", encoding: .utf8))?.split(separator: "\n").count ?? 0) >= 30
        }
        // The fifo stays open: only the signal can end this recording.
        kill(process.processIdentifier, SIGINT)
        try await waitFor("lightshow exits", timeout: 30) { !process.isRunning }
        try? writer.close()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "exit \(process.terminationStatus): \(stderr)")
        // 3 s of tone, the quiet fifo recorded as silence until the signal, then the stop's fade-out (1.5 s at
        // 10 fps, through the dark frame), as `watch` shows it.
        let frames = try expectConsistent(out)
        #expect(frames >= 30 + 16, "\(frames) frames")
        #expect(stderr.contains("recorded \(frames) frames"), "\(stderr)")
        let lines = try String(contentsOfFile: out + "/frames.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines[20].contains("\"state\":\"playing\""), "the tone plays: \(lines[20])")
        let last = try #require(lines.last)
        #expect(last.contains("\"state\":\"stopped\"") && last.contains("\"bass\":0.0000,"), "ends stopped and dark: \(last)")
        // The audio lasts as long as the frames: tone, silence for the quiet, silence for the fade.
        let samples = try ExternalTool.run("soxi", ["-s", out + "/audio.wav"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(samples == String(frames * 800), "\(samples) samples for \(frames) frames at 8 kHz and 10 fps")
        #expect(FileManager.default.fileExists(atPath: out + "/audio.wav"))
    }
}
