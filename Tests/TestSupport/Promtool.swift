import Foundation

/// Prometheus's own checker of the text format (Debian `prometheus`): parses an exposition and lints it (names,
/// `_total` on counters, units, help text).
public enum Promtool {
    /// `promtool check metrics` on `text`: nil when it passes, else what it said (exit 1: unparsable, 3: lint).
    public static func problems(in text: String) async throws -> String? {
        let result = try await OffPool.run { try Launch.run(["/usr/bin/promtool", "check", "metrics"], stdin: Data(text.utf8)) }
        return result.status == 0 ? nil : "exit \(result.status): \(result.stdout)\(result.stderr)"
    }
}
