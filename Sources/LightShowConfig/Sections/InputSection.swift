import LightShowCore

/// `[input]`: source, pcm_format.
enum InputSection: ConfigSection {
    static let name = "input"

    static func read(_ section: SectionReader, into configuration: inout Configuration) {
        if let spec = section.parsed("source", expected: InputSpec.expectedSyntax, InputSpec.init(parsing:)) {
            configuration.input.source = spec
        }
        if let format = section.parsed("pcm_format", expected: PCMFormat.expectedSyntax, PCMFormat.init(parsing:)) {
            configuration.input.pcmFormat = format
        }
    }
}
