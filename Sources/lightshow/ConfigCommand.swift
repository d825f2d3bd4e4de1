import ArgumentParser
import LightShowCore

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Work with configuration files.",
        subcommands: [ConfigCheckCommand.self]
    )
}

struct ConfigCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "check", abstract: "Not built yet.")

    @Argument(help: "The config file to validate.", completion: .file(extensions: ["toml"]))
    var file: String

    func run() async throws {
        try await reportingUserErrors {
            throw LightShowError("'config check' is not available in this build yet", exitStatus: .usage)
        }
    }
}
