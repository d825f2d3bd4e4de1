/// Text from outside (titles, file names, a peer's messages) made safe to show: a terminal executes C0 and C1
/// control characters (`ESC]0;…`, `ESC[2J`, the 8-bit CSI U+009B), so none of them reaches one. Tabs and line
/// breaks become spaces, every other control character is dropped, and the text is capped in length.
public enum SafeText {
    /// Characters kept at most; a title longer than a screen is cut with an ellipsis.
    public static let maximumCharacters = 512

    public static func sanitized(_ text: String) -> String {
        sanitized(text, limit: maximumCharacters)
    }

    public static func sanitized(_ text: String, limit: Int) -> String {
        var result = String.UnicodeScalarView()
        var kept = 0
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let replacement: Unicode.Scalar?
            switch value {
            case 0x09, 0x0A, 0x0D: replacement = " "
            case 0x00...0x1F, 0x7F...0x9F: replacement = nil
            default: replacement = scalar
            }
            guard let replacement else { continue }
            if kept == limit {
                result.append("…")
                break
            }
            result.append(replacement)
            kept += 1
        }
        return String(result)
    }

    /// True when `text` has nothing `sanitized` would change (within the length cap).
    public static func isSafe(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { !(0x00...0x1F).contains($0.value) && !(0x7F...0x9F).contains($0.value) }
            && text.unicodeScalars.count <= maximumCharacters
    }
}
