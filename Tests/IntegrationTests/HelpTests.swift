import Foundation
import Testing
import TestSupport

@Suite struct HelpTests {
    @Test func helpListsEverySubcommand() throws {
        let result = try LightshowProcess.run(["--help"])
        #expect(result.status == 0)
        for command in ["watch", "record", "analyze", "daemon", "ctl", "devices", "config", "lights"] {
            #expect(result.stdout.contains(command), "help should list \(command)")
        }
    }

    /// The version has one source, VERSION (the Debian package's version too), built into the binary.
    @Test func versionIsTheVersionFile() throws {
        let file = try String(contentsOfFile: PackagePaths.file("VERSION"), encoding: .utf8)
        let expected = file.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        #expect(!expected.isEmpty)
        let result = try LightshowProcess.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == expected + "\n")
    }

    @Test func unknownOptionIsAUsageError() throws {
        let result = try LightshowProcess.run(["analyze", "--no-such-flag"])
        #expect(result.status == 64)
        #expect(!result.stderr.isEmpty)
    }
}
