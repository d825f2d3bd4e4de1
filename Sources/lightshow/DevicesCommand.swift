import ArgumentParser
import LightShowCore

struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "devices", abstract: "Not built yet.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await reportingUserErrors {
            throw LightShowError("'devices' is not available in this build yet", exitStatus: .usage)
        }
    }
}
