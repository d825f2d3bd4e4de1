public import LightShowRender

/// Whether the terminal shows direct colour, asked of the terminal itself where the environment can't tell (xterm
/// sets `TERM=xterm` and no `COLORTERM`): it sets an RGB background, asks which attributes are in force (DECRQSS
/// for SGR), puts them back, then asks for its primary device attributes (DA1). A terminal that keeps the RGB
/// colour says so in its DECRQSS answer; every terminal answers DA1, and in order, so that answer ends the wait
/// at once on one that doesn't know DECRQSS (tmux).
public enum TerminalColorQuery {
    public static let request = Array("\u{1B}[48:2::1:2:3m\u{1B}P$qm\u{1B}\\\u{1B}[0m\u{1B}[c".utf8)
    /// Longest wait for the answers: a terminal that answers nothing costs the viewer this much at start. Any
    /// other ends the wait with its DA1 answer, within milliseconds once it runs; a terminal just started (`xterm
    /// -e lightshow watch`) on a busy machine took over 0.2 s to read its input.
    public static let timeoutNanoseconds: UInt64 = 1_000_000_000
    /// Answers longer than this are not a terminal's to these questions.
    static let longestAnswer = 512

    public enum Answer: Equatable, Sendable {
        /// It kept the RGB colour.
        case truecolor
        /// It answered, without the RGB colour (a palette terminal, or one without DECRQSS).
        case other
        /// Not all answers are in yet.
        case incomplete
    }

    /// The depth to draw with: `detected` from the environment, or truecolor where `detected` is a palette and the
    /// terminal says it shows direct colour. `ask` sends the request and returns what came back.
    public static func depth(detected: TerminalColorDepth, ask: ([UInt8]) -> [UInt8]) -> TerminalColorDepth {
        guard detected == .ansi16 || detected == .palette256 else { return detected }
        return read(ask(request)) == .truecolor ? .truecolor : detected
    }

    /// What `bytes` (everything read back so far) say.
    public static func read(_ bytes: [UInt8]) -> Answer {
        guard bytes.count <= longestAnswer else { return .other }
        // DECRQSS: ESC P 1 $ r <SGR parameters> m ESC \ (0 instead of 1: not understood).
        if let start = find(Array("\u{1B}P1$r".utf8), in: bytes, from: 0),
           let end = find(Array("m\u{1B}\\".utf8), in: bytes, from: start.upperBound) {
            return keepsRGB(String(decoding: bytes[start.upperBound..<end.lowerBound], as: UTF8.self)) ? .truecolor : .other
        }
        // DA1: ESC [ ? <parameters> c, answered after the DECRQSS question.
        if let start = find(Array("\u{1B}[?".utf8), in: bytes, from: 0), bytes[start.upperBound...].contains(UInt8(ascii: "c")) {
            return .other
        }
        return .incomplete
    }

    /// Where `pattern` first occurs in `bytes` at or after `from`.
    static func find(_ pattern: [UInt8], in bytes: [UInt8], from: Int) -> Range<Int>? {
        guard bytes.count >= pattern.count, from <= bytes.count - pattern.count else { return nil }
        return (from...(bytes.count - pattern.count)).first { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
            .map { $0..<($0 + pattern.count) }
    }

    /// Whether SGR parameters hold the background 1, 2, 3 as RGB, in the colon form (`48:2::1:2:3`, `48:2:1:2:3`) or
    /// the semicolon one (`48;2;1;2;3`).
    static func keepsRGB(_ parameters: String) -> Bool {
        let items = parameters.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        if items.contains(where: { item in
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            return parts.count >= 5 && parts[0] == "48" && parts[1] == "2" && parts.suffix(3) == ["1", "2", "3"]
        }) { return true }
        return items.indices.contains { index in
            Array(items[index...].prefix(5)) == ["48", "2", "1", "2", "3"]
        }
    }
}
