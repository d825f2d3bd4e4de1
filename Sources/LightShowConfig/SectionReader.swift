import LightShowCore
import TOMLKit

/// Reads the keys of one TOML table (`[bands.bass]`, …) into typed values.
/// Every problem is reported with the key's full path; a key that no section asks for becomes an
/// "unknown key" warning when the section is finished, so adding a key means only asking for it.
final class SectionReader {
    let path: String
    private let table: TOMLTable
    private let collector: DiagnosticCollector
    /// Keys asked for so far: the known keys, for unknown-key warnings and their did-you-mean.
    private var known: [String] = []

    init(table: TOMLTable, path: String, collector: DiagnosticCollector) {
        self.table = table
        self.path = path
        self.collector = collector
    }

    /// A number (integer or float) within `range`; `limits` names the bounds in messages ("the", "the axis").
    func number(_ key: String, in range: ClosedRange<Double>, limits: String = "the") -> Double? {
        guard let value = value(key) else { return nil }
        let scalar = TOMLScalar(value)
        guard let number = scalar.int.map(Double.init) ?? scalar.double else {
            return mismatch(key, expected: "a number", found: value)
        }
        guard number.isFinite else { return problem(key, "expected a finite number, found \(number)") }
        return checked(key, number, in: range, limits: limits)
    }

    /// A whole number within `range`.
    func integer(_ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = value(key) else { return nil }
        guard let number = TOMLScalar(value).int else { return mismatch(key, expected: "an integer", found: value) }
        guard range.contains(number) else {
            let (bound, limit) = number < range.lowerBound ? ("below", "minimum \(range.lowerBound)") : ("above", "maximum \(range.upperBound)")
            return problem(key, "\(number) is \(bound) the \(limit)")
        }
        return number
    }

    func string(_ key: String) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = TOMLScalar(value).string else { return mismatch(key, expected: "a string", found: value) }
        return text
    }

    /// A string without control characters (it reaches logs, `ctl status` and the network) of at most `maximumBytes`.
    func plainText(_ key: String, maximumBytes: Int) -> String? {
        guard let text = string(key) else { return nil }
        if text.utf8.count > maximumBytes {
            return problem(key, "\(text.utf8.count) bytes is above the maximum \(maximumBytes)")
        }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return problem(key, "control characters are not allowed")
        }
        return text
    }

    func boolean(_ key: String) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = TOMLScalar(value).bool else { return mismatch(key, expected: "true or false", found: value) }
        return flag
    }

    /// A string that `parse` turns into a value; `expected` describes the accepted form for messages.
    func parsed<T>(_ key: String, expected: String, _ parse: (String) -> T?) -> T? {
        guard let value = value(key) else { return nil }
        guard let text = TOMLScalar(value).string else { return mismatch(key, expected: expected, found: value) }
        guard let result = parse(text) else { return problem(key, "expected \(expected), found \"\(text)\"") }
        return result
    }

    /// An array of at most `limit` strings, each checked as `plainText` is.
    func plainTexts(_ key: String, limit: Int, maximumBytes: Int) -> [String]? {
        guard let value = value(key) else { return nil }
        guard let array = value.array else { return mismatch(key, expected: "an array of strings", found: value) }
        guard array.count <= limit else { return problem(key, "\(array.count) entries is above the maximum \(limit)") }
        var texts: [String] = []
        for (offset, element) in array.enumerated() {
            guard let text = TOMLScalar(element).string else {
                return problem(key, "entry \(offset + 1): expected a string, found \(element.type.phrase)")
            }
            if text.utf8.count > maximumBytes {
                return problem(key, "entry \(offset + 1): \(text.utf8.count) bytes is above the maximum \(maximumBytes)")
            }
            if text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
                return problem(key, "entry \(offset + 1): control characters are not allowed")
            }
            texts.append(text)
        }
        return texts
    }

    /// `#RRGGBB`.
    func color(_ key: String) -> RGBColor? {
        parsed(key, expected: ##""#RRGGBB""##) { text in text.hasPrefix("#") ? RGBColor(hex: text) : nil }
    }

    /// A duration string (`"10s"`, `"500ms"`) in seconds, within `range` seconds.
    func duration(_ key: String, in range: ClosedRange<Double>) -> Double? {
        guard let seconds = parsed(key, expected: DurationText.expectedSyntax, DurationText.seconds(parsing:)) else {
            return nil
        }
        guard range.contains(seconds) else {
            let (bound, limit) = seconds < range.lowerBound
                ? ("below", "minimum \(DurationText.format(seconds: range.lowerBound))")
                : ("above", "maximum \(DurationText.format(seconds: range.upperBound))")
            return problem(key, "\(DurationText.format(seconds: seconds)) is \(bound) the \(limit)")
        }
        return seconds
    }

    /// Reads the nested table `key` with `body`, then warns about its unknown keys.
    func section(_ key: String, _ body: (SectionReader) -> Void) {
        guard let value = value(key) else { return }
        guard let table = value.table else {
            collector.report(.error, join(key), "expected a table, found \(value.type.phrase)")
            return
        }
        let reader = SectionReader(table: table, path: join(key), collector: collector)
        body(reader)
        reader.finish()
    }

    /// Reads each table of the array of tables `key` (`[[lights]]`) with `body`, then warns about its unknown keys.
    /// Entries are numbered from 1 in key paths (`lights[1]` is the first), as a person counts them in the file.
    func tables(_ key: String, limit: Int, _ body: (SectionReader) -> Void) {
        guard let value = value(key) else { return }
        guard let array = value.array else {
            collector.report(.error, join(key), "expected an array of tables ([[\(key)]]), found \(value.type.phrase)")
            return
        }
        guard array.count <= limit else {
            collector.report(.error, join(key), "\(array.count) entries is above the maximum \(limit)")
            return
        }
        for (offset, element) in array.enumerated() {
            let entryPath = "\(join(key))[\(offset + 1)]"
            guard let table = element.table else {
                collector.report(.error, entryPath, "expected a table, found \(element.type.phrase)")
                continue
            }
            let reader = SectionReader(table: table, path: entryPath, collector: collector)
            body(reader)
            reader.finish()
        }
    }

    /// Reports an error on `key` of this section, or on the section itself when `key` is nil.
    func error(_ key: String?, _ message: String) {
        collector.report(.error, key.map(join) ?? path, message)
    }

    /// Reports a warning on `key` of this section (the file is still used).
    func warning(_ key: String, _ message: String) {
        collector.report(.warning, join(key), message)
    }

    /// Errors reported so far in the whole file: lets a reader tell whether its own keys added any.
    var errorCount: Int {
        collector.diagnostics.count { $0.severity == .error }
    }

    /// Whether the file sets `key` (marks it known).
    func contains(_ key: String) -> Bool {
        value(key) != nil
    }

    /// Whether the file sets `key`, without marking it known: for tables whose keys are open-ended (ids), so only
    /// the ones present count as known and the others stay unknown.
    func isSet(_ key: String) -> Bool {
        table[key] != nil
    }

    /// Warns about every key nobody asked for, with the closest known key as a suggestion.
    func finish() {
        // TOMLKit's `keys` leaks its C array on every call (about 50 bytes a key, found by the config fuzzer's leak
        // check), which a daemon reloading all day would feel; it is asked only when the table has keys nobody
        // asked for, which the count tells.
        guard table.count > Set(known).filter({ table[$0] != nil }).count else { return }
        for key in table.keys where !known.contains(key) {
            var message = table[key]?.type == .table ? "unknown section" : "unknown key"
            if let suggestion = KeySuggestion.closest(to: key, among: known) {
                message += "; did you mean \"\(suggestion)\"?"
            }
            collector.report(.warning, join(key), message)
        }
    }

    // MARK: - Helpers

    private func value(_ key: String) -> (any TOMLValueConvertible)? {
        if !known.contains(key) {
            known.append(key)
            collector.noteKnown(join(key))
        }
        return table[key]
    }

    private func join(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    private func checked(_ key: String, _ number: Double, in range: ClosedRange<Double>, limits: String) -> Double? {
        if let outside = Self.outside(number, range, limits: limits) { return problem(key, outside) }
        return number
    }

    /// Why `number` is not within `range`, or nil when it is.
    static func outside(_ number: Double, _ range: ClosedRange<Double>, limits: String) -> String? {
        if number < range.lowerBound { return "\(number.compact) is below \(limits) minimum \(range.lowerBound.compact)" }
        if number > range.upperBound { return "\(number.compact) is above \(limits) maximum \(range.upperBound.compact)" }
        return nil
    }

    private func mismatch<T>(_ key: String, expected: String, found value: any TOMLValueConvertible) -> T? {
        problem(key, "expected \(expected), found \(value.type.phrase)")
    }

    private func problem<T>(_ key: String, _ message: String) -> T? {
        collector.report(.error, join(key), message)
        return nil
    }
}

/// Gathers the diagnostics of every section, with the line of each key.
final class DiagnosticCollector {
    private let lines: KeyLineIndex
    private(set) var diagnostics: [ConfigDiagnostic] = []
    /// Every key path some section asked for, in order: what the loader knows.
    private(set) var knownKeyPaths: [String] = []

    init(lines: KeyLineIndex) {
        self.lines = lines
    }

    func report(_ severity: ConfigDiagnostic.Severity, _ keyPath: String, _ message: String) {
        diagnostics.append(ConfigDiagnostic(severity, keyPath: keyPath, message, line: lines.line(of: keyPath)))
    }

    func noteKnown(_ keyPath: String) {
        if !knownKeyPaths.contains(keyPath) { knownKeyPaths.append(keyPath) }
    }

    /// Diagnostics sorted by line (stable, so one line's problems keep their order); those without a line last.
    var diagnosticsInFileOrder: [ConfigDiagnostic] {
        diagnostics.enumerated().sorted { a, b in
            let lineA = a.element.line ?? .max, lineB = b.element.line ?? .max
            return lineA != lineB ? lineA < lineB : a.offset < b.offset
        }.map(\.element)
    }
}

extension TOMLType {
    /// "a string", "an integer", … for messages.
    var phrase: String {
        switch self {
        case .table: "a table"
        case .array: "an array"
        case .string: "a string"
        case .int: "an integer"
        case .double: "a float"
        case .bool: "a boolean"
        case .date: "a date"
        case .time: "a time"
        case .dateTime: "a date-time"
        }
    }
}

extension Optional {
    /// Stores the value, if any, in `target`: `section.number("angle", …).assign(to: &settings.angle)`.
    func assign(to target: inout Wrapped) {
        if let value = self { target = value }
    }
}
