import ArgumentParser
import LightShowCore

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "watch", abstract: "Not built yet.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await reportingUserErrors {
            throw LightShowError("'watch' is not available in this build yet", exitStatus: .usage)
        }
    }
}
