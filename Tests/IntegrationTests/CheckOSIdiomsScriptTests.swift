import Foundation
import Testing
import TestSupport

/// scripts/check-os-idioms.sh on a copy of the tree with one line added, and on the real tree.
@Suite struct CheckOSIdiomsScriptTests {
    /// A copy of the script and of `Sources` in a new tree, with `line` appended to a file of the Control module.
    static func tree(adding line: String, to file: String = "Sources/LightShowControl/ControlServer.swift") throws -> TemporaryDirectory {
        let root = try TemporaryDirectory("check-os-idioms")
        try FileManager.default.createDirectory(atPath: root.file("scripts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: PackagePaths.file("scripts/check-os-idioms.sh"), toPath: root.file("scripts/check-os-idioms.sh"))
        try FileManager.default.copyItem(atPath: PackagePaths.file("Sources"), toPath: root.file("Sources"))
        try FileManager.default.createDirectory(atPath: root.file("Tests"), withIntermediateDirectories: true)
        let path = root.file(file)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try Data((text + line + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return root
    }

    static func run(_ root: String) throws -> Launch.Output {
        try Launch.run(["/bin/sh", root + "/scripts/check-os-idioms.sh"])
    }

    @Test(arguments: [
        "func removeSocket(_ path: String) { unlink(path) }",
        "let code = errno",
        "let reason = String(cString: strerror(code))",
        "let fd = Glibc.open(path, O_RDONLY)",
        "deinit { close(fd) }",
        "_ = ioctl(fd, UInt(TIOCGWINSZ), &window)",
    ])
    func aRawCallIsFound(line: String) throws {
        let root = try Self.tree(adding: line)
        let result = try Self.run(root.path)
        #expect(result.status != 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("Sources/LightShowControl/ControlServer.swift:"), "\(result.stdout)")
        #expect(result.stdout.contains(line), "\(result.stdout)")
    }

    /// Swift methods that share a C call's name, and a line that says why it makes the call, pass.
    @Test(arguments: [
        "func stop() { listener.close(); queue.close(discardingPending: true); close() }",
        "func close(_ fd: Int32) {}",
        "let client = try connect(path)",
        "let x = unlink(path) // os-idiom: the test of the exception comment",
    ])
    func aSwiftMethodOrACommentedLinePasses(line: String) throws {
        let root = try Self.tree(adding: line)
        let result = try Self.run(root.path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func theRealTreePasses() throws {
        let result = try Launch.run(["/bin/sh", PackagePaths.file("scripts/check-os-idioms.sh")])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }
}
