import ArgumentParser
import LightShowCore

struct AnalyzeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "analyze", abstract: "Not built yet.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await reportingUserErrors {
            throw LightShowError("'analyze' is not available in this build yet", exitStatus: .usage)
        }
    }
}
