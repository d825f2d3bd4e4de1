public import LightShowCore

/// One problem found in a config file: an error (the file is rejected) or a warning (it is used anyway).
public struct ConfigDiagnostic: Equatable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        case error, warning
    }

    public var severity: Severity
    /// Full dotted key path (`bands.bass.upper`); nil for syntax errors, which have no key.
    public var keyPath: String?
    public var message: String
    /// 1-based position in the file, when known.
    public var line: Int?
    public var column: Int?

    public init(_ severity: Severity, keyPath: String?, _ message: String, line: Int? = nil, column: Int? = nil) {
        self.severity = severity
        self.keyPath = keyPath
        self.message = message
        self.line = line
        self.column = column
    }

    /// `bands.bass.upper: 30000 is above the axis maximum 20000`, without position.
    public var description: String {
        keyPath.map { "\($0): \(message)" } ?? message
    }

    /// Compiler style, which editors can jump to: `FILE:7: error: bands.bass.upper: …`.
    public func formatted(file: String) -> String {
        var location = file
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        // Key paths, values and file names come from outside and reach a terminal or the journal.
        return SafeText.sanitized("\(location): \(severity.rawValue): \(description)", limit: 2048)
    }
}

/// What reading a config file gave: the configuration (valid only without errors) and every problem found.
public struct ConfigurationReport: Sendable {
    public var configuration: Configuration
    public var diagnostics: [ConfigDiagnostic]

    public var errors: [ConfigDiagnostic] { diagnostics.filter { $0.severity == .error } }
    public var warnings: [ConfigDiagnostic] { diagnostics.filter { $0.severity == .warning } }
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}
