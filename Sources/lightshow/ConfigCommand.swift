import ArgumentParser
import LightShowAudio
import LightShowConfig
import LightShowCore
import LightShowLights
import LightShowSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Work with configuration files.",
        subcommands: [ConfigCheckCommand.self, ConfigProbeCommand.self]
    )
}

struct ConfigCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a config file and print every problem with its key path and line.",
        discussion: """
        Exits 0 when the file is usable (warnings such as unknown keys are printed but allowed),
        78 when it has errors, 66 when it can't be read.
        Without FILE, checks the file the other commands would read (--config, else the default locations).

        Examples:
          lightshow config check /etc/lightshow/lightshow.toml
          lightshow config check
        """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The config file to validate.", completion: .file(extensions: ["toml"]))
    var file: String?

    func run() async throws {
        try await reportingUserErrors {
            guard let path = file ?? global.configFile else {
                print("no config file found; the built-in defaults apply")
                return
            }
            // The file, and the parser's probe in a child process, block: on a thread of their own.
            let report = try await DedicatedThread.complete(name: "ls-config") { try ConfigurationLoader.read(file: path) }
            for diagnostic in report.diagnostics {
                print(diagnostic.formatted(file: path))
            }
            var errors = report.errors.count
            if !report.hasErrors, report.configuration.lights.contains(where: { $0.networkProtocol == .hue }) {
                errors += try await checkHue(report.configuration.lights, path: path)
            }
            guard errors == 0 else {
                let count = errors
                print("\(path): \(count) error\(count == 1 ? "" : "s")")
                throw ExitCode(ExitStatus.config.rawValue)
            }
            if let warning = ALSAPCMDefinition.warning(for: report.configuration.input.source) {
                print("\(path): warning: input.source: \(warning)")
            }
            print("\(path): OK")
        }
    }

    /// Hue outputs: the pairing, and the area and channels on the bridge when it answers. The number of errors.
    private func checkHue(_ lights: [LightOutputSettings], path: String) async throws -> Int {
        let state = LightsStateDirectory.path(environment: ProcessInfo.processInfo.environment)
        let problems = try await DedicatedThread.run(name: "ls-hue-check") { () throws(LightShowError) in
            HueConfigCheck.problems(in: lights, stateDirectory: state)
        }
        for problem in problems {
            print("\(path): \(problem.isError ? "error" : "warning"): \(problem.keyPath): \(problem.message)")
        }
        return problems.count { $0.isError }
    }
}

/// `lightshow config probe`: parses the config text on stdin and exits. Run by `ConfigParserProbe` only.
struct ConfigProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe", abstract: "Parse config text from stdin (used internally).", shouldDisplay: false
    )

    func run() throws {
        // Bounded like a config file (twice over); a read error parses what came.
        let bytes = (try? FileDescriptorIO.readToEnd(0, limit: 2 << 20)) ?? []
        _ = ConfigurationLoader.parse(String(decoding: bytes, as: UTF8.self))
    }
}
