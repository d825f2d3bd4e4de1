import LightShowCore

/// `[output]`: delay (ms), the sync offset of viewers and lights.
enum OutputSection: ConfigSection {
    static let name = "output"

    static func read(_ section: SectionReader, into configuration: inout Configuration) {
        section.number("delay", in: 0...OutputSettings.maximumDelayMilliseconds)
            .assign(to: &configuration.output.delayMilliseconds)
    }
}
