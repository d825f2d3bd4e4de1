import Foundation
import Testing
import TestSupport

/// Recording into a directory someone else can write to: temporaries are created with O_EXCL | O_NOFOLLOW, so a
/// link planted under a temporary's name is never written through, and the leftovers of a killed run don't stop
/// the next one.
@Suite struct HostileRecordTests {
    @Test func plantedLinksAndLeftoverTemporariesNeitherLeakNorBlock() async throws {
        let directory = try TemporaryDirectory("ls-hostile-record")
        let victim = try directory.write("victim.txt", Data("keep me\n".utf8))
        let out = directory.file("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        for name in [".audio.wav.tmp", ".frame_000000.png.tmp", ".frame_000001.png.tmp"] {
            try FileManager.default.createSymbolicLink(atPath: "\(out)/\(name)", withDestinationPath: victim)
        }
        let result = try await LightshowProcess.runDetached(
            ["record", "--input", "demo", "--duration", "0.5", "--fps", "10", "--size", "64x36", "--out", out]
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n", "written through a planted link")
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(!names.contains { $0.hasSuffix(".tmp") }, "\(names)")
        #expect(names.contains("frame_000004.png") && names.contains("audio.wav"), "\(names)")
    }
}

/// A daemon stream from a hostile peer: numbers no frame has (index 1e300, t 1e300, levels out of range, elapsed
/// 1e300) and titles with terminal controls. `record --connect` takes what makes sense and never traps.
@Suite struct HostileStreamTests {
    static let frame = #"{"event":"frame","index":1e300,"t":1e300,"bass":1e300,"mid":-1e300,"treble":0.5,"#
        + #""state":"playing","title":"\u001b]0;owned\u0007\u001b[2J","elapsed":1e300}"# + "\n"
    static let scene = ##"{"event":"scene","angle":1e300,"colors":{"bass":"#FF0000"},"proportions":[1e300,-1,0]}"## + "\n"

    /// `record --connect` for `duration` seconds from a peer that streams `stream` over and over.
    static func record(from stream: String, duration: String = "1") async throws -> LightshowProcess.Result {
        let directory = try TemporaryDirectory("ls-hostile-stream")
        let daemon = try FakeDaemon(
            path: directory.file("fake.sock"), reply: #"{"id":1,"ok":true,"result":{"fps":30}}"# + "\n",
            // However slowly the recorder starts and reads, it hangs up first (which ends this peer's stream).
            stream: stream, seconds: 30
        )
        return try await LightshowProcess.runDetached(
            ["record", "--connect", daemon.path, "--out", directory.file("out"), "--duration", duration, "--fps", "10",
             "--size", "64x36"]
        )
    }

    @Test func recordConnectTakesWhatMakesSenseOfHostileNumbers() async throws {
        let result = try await Self.record(from: Self.scene + Self.frame)
        #expect(result.status == 0, "\(result.status): \(result.stderr)")
        #expect(result.stderr.contains("recorded 10 frames"), "\(result.stderr)")
    }

    @Test func aMalformedOrEndlessLineEndsTheRecordingWithAnError() async throws {
        for junk in [##"{"event":"frame","index":"#"## + "\n", String(repeating: "x", count: 2 << 20)] {
            // Frames are recorded on the wall clock while a thread of their own reads the stream: a short recording
            // could end before that thread has read 2 MB of a line, so only the broken stream may end this one.
            let result = try await Self.record(from: Self.frame + junk, duration: "60")
            #expect(result.status == 74, "\(result.status): \(result.stderr)")
            #expect(result.stderr.contains("the stream broke") && result.stderr.contains("complete frames"), "\(result.stderr)")
            #expect(!result.stderr.contains("\u{1B}"), "\(result.stderr)")
        }
    }
}
