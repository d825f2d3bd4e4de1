import ArgumentParser
import LightShowCore

struct CtlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ctl", abstract: "Not built yet.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await reportingUserErrors {
            throw LightShowError("'ctl' is not available in this build yet", exitStatus: .usage)
        }
    }
}
