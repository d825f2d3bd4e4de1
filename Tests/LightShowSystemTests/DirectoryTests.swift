import Foundation
import LightShowSystem
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite struct DirectoryTests {
    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    @Test func makeAllMakesEveryMissingLevelWithTheMode() throws {
        let root = try TemporaryDirectory("directory")
        let path = root.file("a/b/c")
        try Directory.makeAll(path, mode: 0o700)
        #expect(Self.isDirectory(root.file("a")) && Self.isDirectory(root.file("a/b")) && Self.isDirectory(path))
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }

    @Test func makeAllAgainChangesNothing() throws {
        let root = try TemporaryDirectory("directory")
        let path = root.file("a/b")
        try Directory.makeAll(path)
        try Data("kept".utf8).write(to: URL(fileURLWithPath: root.file("a/b/file")))
        try Directory.makeAll(path)
        #expect(try String(contentsOfFile: root.file("a/b/file"), encoding: .utf8) == "kept")
        #expect(try Directory.make(path) == false)
    }

    @Test func aFileInTheWayIsNamed() throws {
        let root = try TemporaryDirectory("directory")
        try Data().write(to: URL(fileURLWithPath: root.file("file")))
        #expect(throws: SystemCallError("mkdir \(root.file("file"))", code: ENOTDIR)) {
            try Directory.makeAll(root.file("file/below"))
        }
        let error = #expect(throws: SystemCallError.self) { try Directory.makeAll(root.file("file")) }
        #expect(error?.description == "mkdir \(root.file("file")): Not a directory")
    }

    @Test func makeAllOfAParentLeavesTheLastComponent() throws {
        let root = try TemporaryDirectory("directory")
        try Directory.makeAll(parentOf: root.file("x/y/name"))
        #expect(Self.isDirectory(root.file("x/y")))
        #expect(!FileManager.default.fileExists(atPath: root.file("x/y/name")))
    }

    @Test func entriesListsNamesButDots() throws {
        let root = try TemporaryDirectory("directory")
        try Directory.makeAll(root.file("sub"))
        try Data().write(to: URL(fileURLWithPath: root.file(".hidden")))
        #expect(try Set(Directory.entries(of: root.path)) == ["sub", ".hidden"])
    }
}
