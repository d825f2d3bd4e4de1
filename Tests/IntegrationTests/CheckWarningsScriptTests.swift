import Foundation
import Testing
import TestSupport

/// scripts/check-warnings.sh on a tree of its own whose compiler diagnostics (`.dia`) each hold one warning, laid out
/// as the compiler's bitstream lays them: the source's path and the message as text among binary bytes.
@Suite struct CheckWarningsScriptTests {
    /// A copy of the script in a new tree with `sources` (path → diagnostics bytes around the absolute path).
    static func tree(_ sources: [(file: String, module: String, around: (before: [UInt8], after: [UInt8]))]) throws -> TemporaryDirectory {
        let root = try TemporaryDirectory("check-warnings")
        try FileManager.default.createDirectory(atPath: root.file("scripts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: PackagePaths.file("scripts/check-warnings.sh"), toPath: root.file("scripts/check-warnings.sh"))
        for source in sources {
            let path = root.file(source.file)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data("let x = 1\n".utf8).write(to: URL(fileURLWithPath: path))
            let build = root.file(".build/debug/\(source.module).build")
            try FileManager.default.createDirectory(atPath: build, withIntermediateDirectories: true)
            let name = (source.file as NSString).lastPathComponent.replacingOccurrences(of: ".swift", with: ".dia")
            let bytes = Array("DIAG".utf8) + [0x01, 0x08, 0, 0] + source.around.before + Array(path.utf8) + source.around.after
                + [0, 0, 0x72, 0] + Array("initialization of immutable value 'x' was never used".utf8) + [0, 0]
            // Written after the source: diagnostics older than their file are skipped as stale.
            try Data(bytes).write(to: URL(fileURLWithPath: "\(build)/\(name)"))
        }
        return root
    }

    static func run(_ root: TemporaryDirectory) throws -> Launch.Output {
        try Launch.run([root.file("scripts/check-warnings.sh"), "debug"])
    }

    /// The web server's module is `lightshow_web` (SwiftPM's name for the folder `lightshow-web`).
    @Test func aWarningInLightshowWebIsFound() throws {
        let root = try Self.tree([("Sources/lightshow-web/main.swift", "lightshow_web", ([0, 0], [0, 0]))])
        let result = try Self.run(root)
        #expect(result.status != 0 && result.stdout.contains("Sources/lightshow-web/main.swift (debug)"), "\(result.stdout)\(result.stderr)")
    }

    /// A path whose length leaves no padding beside it runs into the bitstream's printable bytes on either side.
    @Test func aPathRunningIntoItsNeighboursIsFound() throws {
        let root = try Self.tree([("Sources/Lib/A.swift", "Lib", (Array("`C".utf8), Array("r8".utf8)))])
        let result = try Self.run(root)
        #expect(result.status != 0 && result.stdout.contains("Sources/Lib/A.swift (debug)"), "\(result.stdout)\(result.stderr)")
    }

    @Test func aCleanTreePasses() throws {
        let root = try TemporaryDirectory("check-warnings")
        try FileManager.default.createDirectory(atPath: root.file("scripts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: PackagePaths.file("scripts/check-warnings.sh"), toPath: root.file("scripts/check-warnings.sh"))
        try FileManager.default.createDirectory(atPath: root.file("Sources/Lib"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root.file(".build/debug/Lib.build"), withIntermediateDirectories: true)
        try Data("DIAG\u{1}\u{8}\0\0C8< ".utf8).write(to: URL(fileURLWithPath: root.file(".build/debug/Lib.build/A.dia")))
        let result = try Self.run(root)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }
}
