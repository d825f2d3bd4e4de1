import Foundation
import LightShowSystem
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite struct AtomicFileTests {
    static func contents(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func aWriteReplacesTheFileWhole() throws {
        let root = try TemporaryDirectory("atomic")
        let path = try root.write("state", Data("old".utf8))
        try AtomicFile.write(Array("new contents".utf8), to: path)
        #expect(Self.contents(path) == "new contents")
        #expect(try Directory.entries(of: root.path) == ["state"])
    }

    /// A writer that stops half way (its caller failed) leaves the old file as it was and no temporary file.
    @Test func aWriteAbandonedHalfWayKeepsTheOldFile() throws {
        let root = try TemporaryDirectory("atomic")
        let path = try root.write("state", Data("old".utf8))
        do {
            let file = try AtomicFile(path: path)
            try file.write(Array("half of the n".utf8))
            #expect(FileManager.default.fileExists(atPath: file.temporaryPath))
            #expect(Self.contents(path) == "old")
        }
        #expect(Self.contents(path) == "old")
        #expect(try Directory.entries(of: root.path) == ["state"])
    }

    /// The rename itself fails (a non-empty directory is in the way): the error names the target, which is left
    /// as it was, and the temporary file is gone.
    @Test func aFailedPlacementLeavesNoTemporaryFile() throws {
        let root = try TemporaryDirectory("atomic")
        let path = root.file("target")
        try Directory.makeAll(path + "/inside")
        let error = #expect(throws: SystemCallError.self) { try AtomicFile.write(Array("new".utf8), to: path) }
        #expect(error?.operation == "rename to \(path)")
        #expect(try Directory.entries(of: path) == ["inside"])
        #expect(try Directory.entries(of: root.path) == ["target"])
    }

    @Test func creatingOnlyLeavesWhatIsThere() throws {
        let root = try TemporaryDirectory("atomic")
        let path = root.file("id")
        #expect(try AtomicFile.write(Array("first".utf8), to: path, placement: .creatingOnly))
        #expect(try !AtomicFile.write(Array("second".utf8), to: path, placement: .creatingOnly))
        #expect(Self.contents(path) == "first")
        #expect(try Directory.entries(of: root.path) == ["id"])
    }

    /// A symlink planted at the temporary name is removed, never written through.
    @Test func aLinkAtTheTemporaryNameIsNotFollowed() throws {
        let root = try TemporaryDirectory("atomic")
        let victim = try root.write("victim", Data("untouched".utf8))
        let path = root.file("state")
        #expect(symlink(victim, AtomicFile.hiddenTemporaryPath(for: path)) == 0)
        let file = try AtomicFile(path: path)
        try file.write(Array("new".utf8))
        try file.place()
        #expect(Self.contents(victim) == "untouched")
        #expect(Self.contents(path) == "new")
    }

    /// Written on one thread and placed later (a recording's frames): unplaced, it stays under its temporary name.
    @Test func finishedWritingWaitsUnderItsTemporaryName() throws {
        let root = try TemporaryDirectory("atomic")
        let path = root.file("frame.png")
        let file = try AtomicFile(path: path, temporaryPath: root.file(".frame.png.tmp"), mode: 0o640)
        try file.write(Array("frame".utf8))
        try file.finishWriting(sync: false)
        #expect(file.descriptor == -1)
        #expect(try Directory.entries(of: root.path) == [".frame.png.tmp"])
        try file.place()
        #expect(try Directory.entries(of: root.path) == ["frame.png"])
        // The mode asked for, less what the umask takes (never the owner's read and write).
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 & ~0o640 == 0 && info.st_mode & 0o600 == 0o600)
    }

    @Test func theHiddenTemporaryNameIsBesideTheFile() {
        #expect(AtomicFile.hiddenTemporaryPath(for: "/a/b/audio.wav") == "/a/b/.audio.wav.tmp")
        #expect(AtomicFile.hiddenTemporaryPath(for: "audio.wav") == ".audio.wav.tmp")
    }
}
