import ArgumentParser
import LightShowCore

/// `--input` and `--format-pcm`, for every command that reads audio, parsed in one place.
struct InputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Audio input (default: [input] source of the config, alsa:default).", valueName: "SPEC"))
    var input: String?

    @Option(
        name: .customLong("format-pcm"),
        help: ArgumentHelp("Raw PCM layout for fifo: and stdin (default 44100:16:2).", valueName: "RATE:BITS:CHANNELS")
    )
    var formatPCM: String?

    /// Whether either flag was given.
    var isGiven: Bool { input != nil || formatPCM != nil }

    /// `--input`, parsed; a malformed one is a usage error naming what was expected.
    func spec() throws -> InputSpec? {
        guard let input else { return nil }
        guard let spec = InputSpec(parsing: input) else {
            throw LightShowError("--input '\(input)': expected \(InputSpec.expectedSyntax)", exitStatus: .usage)
        }
        return spec
    }

    /// `--format-pcm`, parsed; a malformed one is a usage error naming what was expected.
    func pcmFormat() throws -> PCMFormat? {
        guard let formatPCM else { return nil }
        guard let pcm = PCMFormat(parsing: formatPCM) else {
            throw LightShowError("--format-pcm '\(formatPCM)': expected \(PCMFormat.expectedSyntax)", exitStatus: .usage)
        }
        return pcm
    }
}
