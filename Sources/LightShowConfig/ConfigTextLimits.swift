/// Bounds a config text must keep before TOMLKit sees it. toml++ recurses per nesting level and per dotted key
/// segment, so a 120 KB key of 60,000 segments (or arrays nested as deep) overflows the stack and kills the
/// process; a config file needs none of that. One pass over the bytes, tracking strings and comments like TOML.
struct ConfigTextLimits {
    /// Bytes of text; the same bound as a config file's size.
    var maximumBytes = ConfigFile.maximumSize
    /// Arrays and inline tables open at once.
    var maximumNesting = 32
    /// Dots outside strings in one key, table header or value (a value has at most one: `1.5`).
    var maximumKeySegments = 32
    /// Lines of text; the key-line index keeps one entry per line at most.
    var maximumLines = 100_000

    /// A reason the text is refused, with the line it was found on, or nil when it is within bounds.
    func violation(in text: String) -> (message: String, line: Int)? {
        let bytes = text.utf8
        if bytes.count > maximumBytes {
            return ("the file is larger than \(maximumBytes / 1024) KiB", 1)
        }
        let text = Array(bytes)
        var index = 0
        var line = 1, depth = 0, dots = 0
        func starts(_ quote: UInt8, count: Int, at position: Int) -> Bool {
            position + count <= text.count && text[position..<position + count].allSatisfy { $0 == quote }
        }
        /// Whether only spaces and tabs come before `position` on its line.
        func startsLine(_ position: Int) -> Bool {
            var before = position - 1
            while before >= 0 && (text[before] == UInt8(ascii: " ") || text[before] == UInt8(ascii: "\t")) { before -= 1 }
            return before < 0 || text[before] == UInt8(ascii: "\n")
        }
        while index < text.count {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                dots = 0
                if line > maximumLines { return ("more than \(maximumLines) lines", line) }
            case UInt8(ascii: "#"):
                while index + 1 < text.count && text[index + 1] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                // Skips the string; its newlines still count. Basic strings have escapes, literal ones don't.
                let multiLine = starts(byte, count: 3, at: index)
                index += multiLine ? 3 : 1
                while index < text.count {
                    let inner = text[index]
                    if inner == UInt8(ascii: "\\") && byte == UInt8(ascii: "\"") { index += 2; continue }
                    if inner == UInt8(ascii: "\n") {
                        line += 1
                        if !multiLine { break }
                    }
                    if inner == byte && (!multiLine || starts(byte, count: 3, at: index)) {
                        index += multiLine ? 2 : 0
                        break
                    }
                    index += 1
                }
            case UInt8(ascii: "[") where depth == 0 && startsLine(index):
                // A table header: toml++ asserts (aborts the process) when its first key starts with anything but
                // a bare-key character or a quote, e.g. `[ \`a]` (found by the config fuzzer).
                var next = index + 1
                if next < text.count && text[next] == UInt8(ascii: "[") { next += 1 }
                while next < text.count && (text[next] == UInt8(ascii: " ") || text[next] == UInt8(ascii: "\t")) { next += 1 }
                guard next < text.count, Self.canStartKey(text[next]) else { return ("a table header without a key", line) }
                depth += 1
                dots = 0
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                dots = 0
                if depth > maximumNesting { return ("arrays or tables nested more than \(maximumNesting) deep", line) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth = max(0, depth - 1)
                dots = 0
            case UInt8(ascii: "="), UInt8(ascii: ","):
                dots = 0
            case UInt8(ascii: "."):
                dots += 1
                if dots >= maximumKeySegments { return ("a key with more than \(maximumKeySegments) dotted parts", line) }
            case 0x80...:
                // TOML's bare keys are ASCII; toml++ asserts (aborts the process) on a table header that starts with
                // another character, e.g. `[bänds]` (found by the config fuzzer).
                return ("a character outside ASCII in a key or value; quote keys that need one", line)
            case 0x00...0x08, 0x0B, 0x0C, 0x0E...0x1F, 0x7F:
                let hex = String(byte, radix: 16, uppercase: true)
                return ("a control character (U+\(hex.count == 1 ? "000" : "00")\(hex)) outside a string", line)
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// A bare key's characters, or the quote of a quoted key.
    static func canStartKey(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "\""), UInt8(ascii: "'"):
            true
        default:
            false
        }
    }
}
