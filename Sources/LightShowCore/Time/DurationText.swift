/// Durations as people write them in config files and flags: `"10s"`, `"500ms"`, `"2m"`, `"1.5s"`, `"1h30m"`.
public enum DurationText {
    /// What a duration must look like, for error messages.
    public static let expectedSyntax = #"a duration like "10s", "500ms", "2m" or "1h30m""#

    /// Seconds in `text`, a sequence of number+unit parts (units `ms`, `s`, `m`, `h`); nil when malformed.
    public static func seconds(parsing text: String) -> Double? {
        var rest = Substring(text.trimmingSpaces())
        guard !rest.isEmpty else { return nil }
        var total = 0.0
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, let value = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count)
            guard let scale = unitSeconds[String(unit)] else { return nil }
            total += value * scale
        }
        return total.isFinite ? total : nil
    }

    /// `seconds` written back in the shortest exact form (`10s`, `500ms`, `2m`).
    /// Values no duration in a config reaches (or non-finite ones) are written as plain seconds, never converted to
    /// an integer that could trap: a message quoting a bad value must not crash while it is built.
    public static func format(seconds: Double) -> String {
        let milliseconds = (seconds * 1000).rounded()
        guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return "\(seconds.compact)s" }
        if milliseconds.truncatingRemainder(dividingBy: 3_600_000) == 0 && milliseconds > 0 {
            return "\(Int(milliseconds / 3_600_000))h"
        }
        if milliseconds.truncatingRemainder(dividingBy: 60_000) == 0 && milliseconds > 0 {
            return "\(Int(milliseconds / 60_000))m"
        }
        if milliseconds.truncatingRemainder(dividingBy: 1000) == 0 {
            return "\(Int(milliseconds / 1000))s"
        }
        return "\(Int(milliseconds))ms"
    }

    private static let unitSeconds: [String: Double] = ["ms": 0.001, "s": 1, "m": 60, "h": 3600]
}

extension String {
    /// The string without leading and trailing spaces and tabs (no Foundation needed).
    func trimmingSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
