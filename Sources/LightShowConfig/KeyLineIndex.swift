/// Finds the line of each key in a TOML text, so diagnostics can point at it.
/// TOMLKit keeps no source positions for values, so this reads table headers and `key =` lines itself;
/// it only has to be right for what a person writes in a config file, and gives nil when unsure.
struct KeyLineIndex {
    /// Longest key path indexed: every key line stores its table's path, so a table header of a 500 KB quoted key
    /// followed by many keys would otherwise take memory and time in proportion to the product.
    static let maximumPathCharacters = 1024

    private var lines: [String: Int] = [:]

    init(text: String) {
        var table: [String]? = []
        var openMultiline: String?
        var entries: [String: Int] = [:]
        var number = 0
        // Split on Character.isNewline: Swift keeps "\r\n" as one Character, so splitting on "\n" misses it.
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            let line = Substring(String(raw).trimmingWhitespace())
            if let delimiter = openMultiline {
                if line.contains(delimiter) { openMultiline = nil }
                continue
            }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                let inner = line.drop { $0 == "[" }.prefix { $0 != "]" }
                var parts = Self.keyParts(inner)
                if line.hasPrefix("[["), !parts.isEmpty {
                    // The n-th `[[lights]]` is `lights[n]`, counting from 1 as the loader's paths do.
                    record(parts, line: number)
                    let array = parts.joined(separator: ".")
                    entries[array, default: 0] += 1
                    parts[parts.count - 1] += "[\(entries[array, default: 0])]"
                }
                // Keys under a table too long to index get no line (the table's own line still serves).
                table = parts.reduce(0) { $0 + $1.utf8.count + 1 } <= Self.maximumPathCharacters ? parts : nil
                if let table { record(table, line: number) }
                continue
            }
            guard let equals = Self.assignment(in: line) else { continue }
            if let table, equals.utf16Offset(in: line) - line.startIndex.utf16Offset(in: line) <= Self.maximumPathCharacters {
                record(table + Self.keyParts(line[..<equals]), line: number)
            }
            let value = line[line.index(after: equals)...]
            for delimiter in ["\"\"\"", "'''"] where value.occurrences(of: delimiter) % 2 == 1 {
                openMultiline = delimiter
            }
        }
    }

    /// Every table and key path in the text, in file order.
    var keyPaths: [String] {
        lines.sorted { $0.value < $1.value }.map(\.key)
    }

    /// Line of `path`, or of its nearest enclosing table that appears in the text; an entry of an inline array
    /// (`lights[1]` of `lights = [ … ]`) falls back to the array's line.
    func line(of path: String) -> Int? {
        var parts = path.split(separator: ".").map(String.init)
        while let last = parts.last {
            if let line = lines[parts.joined(separator: ".")] { return line }
            if let bracket = last.firstIndex(of: "[") {
                parts[parts.count - 1] = String(last[..<bracket])
            } else {
                parts.removeLast()
            }
        }
        return nil
    }

    private mutating func record(_ parts: [String], line: Int) {
        let path = parts.joined(separator: ".")
        if lines[path] == nil { lines[path] = line }
    }

    /// Index of the `=` that ends the key of a key/value line, skipping quoted key parts.
    private static func assignment(in line: Substring) -> Substring.Index? {
        var quote: Character?
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "=" {
                return index
            }
        }
        return nil
    }

    /// `a."b.c".d` → `["a", "b.c", "d"]`.
    private static func keyParts(_ key: Substring) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for character in key {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "." {
                parts.append(current)
                current = ""
            } else if character != " " && character != "\t" {
                current.append(character)
            }
        }
        parts.append(current)
        return parts
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }

    func occurrences(of needle: String) -> Int {
        ranges(of: needle).count
    }
}
