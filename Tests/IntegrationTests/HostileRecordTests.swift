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
