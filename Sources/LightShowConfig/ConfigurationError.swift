public import LightShowCore

/// A config file that could not be used, with exit status 66 (missing, unreadable) or 78 (invalid).
public struct ConfigurationError: UserFacingError, Equatable {
    public enum Reason: Equatable, Sendable {
        case notFound
        case unreadable(String)
        /// Invalid content: every error found, each with its key path and line.
        case invalid([ConfigDiagnostic])
    }

    public var file: String
    public var reason: Reason

    public init(file: String, reason: Reason) {
        self.file = file
        self.reason = reason
    }

    public var exitStatus: ExitStatus {
        switch reason {
        case .notFound, .unreadable: .noInput
        case .invalid: .config
        }
    }

    /// One line per problem.
    public var description: String {
        switch reason {
        case .notFound:
            "config file \(SafeText.sanitized(file)): not found"
        case .unreadable(let why):
            "config file \(SafeText.sanitized(file)): cannot be read (\(why))"
        case .invalid(let diagnostics):
            diagnostics.map { $0.formatted(file: file) }.joined(separator: "\n")
        }
    }
}
