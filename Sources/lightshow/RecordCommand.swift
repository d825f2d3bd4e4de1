import ArgumentParser
import LightShowCore

struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "record", abstract: "Not built yet.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await reportingUserErrors {
            throw LightShowError("'record' is not available in this build yet", exitStatus: .usage)
        }
    }
}
