public import LightShowCore
import TOMLKit

/// TOML text or file → validated `Configuration`, collecting every problem rather than stopping at the first.
public enum ConfigurationLoader {
    /// Every top-level table the file may have. A new section is one file under Sections/ and one entry here.
    static let sections: [any ConfigSection.Type] = [
        InputSection.self,
        BandsSection.self,
        AnalysisSection.self,
        AccentsSection.self,
        OutputSection.self,
        BackgroundSection.self,
        SceneSection.self,
        PlaybackSection.self,
        PlayerSection.self,
        MPDSection.self,
        MPRISSection.self,
        ControlSection.self,
        MQTTSection.self,
        WebSection.self,
        LightsSection.self,
    ]

    /// Reads `text` over `base`. The report's configuration is only meaningful when it has no errors.
    public static func parse(_ text: String, over base: Configuration = .defaults) -> ConfigurationReport {
        if let (message, line) = ConfigTextLimits().violation(in: text) {
            let refused = ConfigDiagnostic(.error, keyPath: nil, "refused before parsing: \(message)", line: line)
            return ConfigurationReport(configuration: base, diagnostics: [refused])
        }
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: text)
        } catch let error as TOMLParseError {
            let syntax = ConfigDiagnostic(
                .error, keyPath: nil, syntaxMessage(error.description),
                line: error.source.begin.line, column: error.source.begin.column
            )
            return ConfigurationReport(configuration: base, diagnostics: [syntax])
        } catch {
            return ConfigurationReport(configuration: base, diagnostics: [ConfigDiagnostic(.error, keyPath: nil, "\(error)")])
        }
        let (configuration, collector) = readSections(of: document.root, text: text, over: base)
        return ConfigurationReport(configuration: configuration, diagnostics: collector.diagnosticsInFileOrder)
    }

    /// Runs every section reader over the parsed document, then warns about unknown top-level tables.
    private static func readSections(
        of root: TOMLTable, text: String, over base: Configuration
    ) -> (Configuration, DiagnosticCollector) {
        let collector = DiagnosticCollector(lines: KeyLineIndex(text: text))
        let top = SectionReader(table: root, path: "", collector: collector)
        var configuration = base
        for section in sections {
            section.read(from: top, into: &configuration)
        }
        top.finish()
        return (configuration, collector)
    }

    /// toml++ says "Error while parsing …"; read as "syntax error while parsing …".
    private static func syntaxMessage(_ description: String) -> String {
        let prefix = "Error while "
        guard description.hasPrefix(prefix) else { return "syntax error: \(description)" }
        return "syntax error while " + description.dropFirst(prefix.count)
    }

    /// Every key path the sections read, found by reading `text` (which should have every table):
    /// lets tests hold the shipped config file and the code to the same set of keys.
    static func knownKeyPaths(readingAllOf text: String) -> [String] {
        guard ConfigTextLimits().violation(in: text) == nil, let document = try? TOMLDocument(parsing: text) else { return [] }
        return readSections(of: document.root, text: text, over: .defaults).1.knownKeyPaths
    }

    /// Reads the file at `path` over `base`. Throws only when the file can't be read (exit 66);
    /// problems in its content are in the report.
    public static func read(file path: String, over base: Configuration = .defaults) throws(ConfigurationError) -> ConfigurationReport {
        let text = try ConfigFile.read(path)
        if ConfigTextLimits().violation(in: text) == nil, case .crashed(let why) = ConfigParserGuard.check(text) {
            let crashed = ConfigDiagnostic(.error, keyPath: nil, "the TOML parser cannot read this file (\(why)); check its syntax")
            return ConfigurationReport(configuration: base, diagnostics: [crashed])
        }
        return parse(text, over: base)
    }

    /// The configuration in `path`, or a `ConfigurationError` listing every error (exit 78).
    /// Warnings go to `warn`, already formatted with the file and line.
    public static func load(
        file path: String,
        over base: Configuration = .defaults,
        warn: (String) -> Void
    ) throws(ConfigurationError) -> Configuration {
        let report = try read(file: path, over: base)
        for warning in report.warnings { warn(warning.formatted(file: path)) }
        guard !report.hasErrors else { throw ConfigurationError(file: path, reason: .invalid(report.errors)) }
        return report.configuration
    }
}
