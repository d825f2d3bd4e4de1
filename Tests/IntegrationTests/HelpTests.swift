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

    @Test func unknownOptionIsAUsageError() throws {
        let result = try LightshowProcess.run(["analyze", "--no-such-flag"])
        #expect(result.status == 64)
        #expect(!result.stderr.isEmpty)
    }
}
