/// How many colours the terminal shows, from the environment or `--color`.
public enum TerminalColorDepth: String, Sendable, CaseIterable, Equatable {
    case truecolor
    case palette256 = "256"
    case ansi16 = "16"
    /// No colour codes at all: the lights become shade characters.
    case none

    /// As the README's "Watching in a terminal" says: `--color` wins; else `NO_COLOR` (any value) means none; else COLORTERM truecolor/24bit → truecolor,
    /// TERM containing 256color → 256, anything else → 16.
    public static func detect(environment: [String: String], override: TerminalColorDepth? = nil) -> TerminalColorDepth {
        if let override { return override }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .truecolor }
        if (environment["TERM"] ?? "").contains("256color") { return .palette256 }
        return .ansi16
    }
}
