import ArgumentParser
import LightShowCore

struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "daemon", abstract: "Not built yet.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await reportingUserErrors {
            throw LightShowError("'daemon' is not available in this build yet", exitStatus: .usage)
        }
    }
}
