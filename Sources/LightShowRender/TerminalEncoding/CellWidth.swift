/// How many cells a terminal gives a character, by the rules `wcwidth` follows for the ranges titles bring in,
/// without depending on the process's locale (the program sets none): combining marks, joiners and variation
/// selectors take none, East Asian wide and fullwidth characters and emoji two, everything else one.
public enum CellWidth {
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        // Hangul vowels and final consonants join the syllable before them.
        if (0x1160...0x11FF).contains(value) { return 0 }
        // Regional indicators pair into flags that terminals draw at different widths; alone, one cell.
        if scalar.properties.isEmojiPresentation && !(0x1F1E6...0x1F1FF).contains(value) { return 2 }
        return wideRanges.contains { $0.contains(value) } ? 2 : 1
    }

    /// East Asian wide and fullwidth blocks (emoji are found by their property).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,    // Hangul leading consonants
        0x2E80...0x303E,    // CJK radicals, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,    // kana, Bopomofo, Hangul compatibility jamo, enclosed CJK, CJK compatibility
        0x3400...0x4DBF,    // CJK extension A
        0x4E00...0x9FFF,    // CJK unified ideographs
        0xA000...0xA4CF,    // Yi
        0xA960...0xA97F,    // Hangul jamo extended A
        0xAC00...0xD7A3,    // Hangul syllables
        0xF900...0xFAFF,    // CJK compatibility ideographs
        0xFE10...0xFE19,    // vertical forms
        0xFE30...0xFE6F,    // CJK compatibility forms, small form variants
        0xFF00...0xFF60,    // fullwidth forms
        0xFFE0...0xFFE6,
        0x17000...0x18CFF,  // Tangut
        0x1B000...0x1B2FF,  // kana supplements
        0x20000...0x3FFFD,  // CJK extensions B and beyond
    ]

    /// The one scalar that shows `character` in a cell, and how many cells it takes; nil for a character that
    /// takes none. A cell holds one scalar: a decomposed accent is composed first (`é` as e + U+0301 becomes
    /// U+00E9); otherwise the rest of a cluster (marks, joiners, an emoji's variation selector) is left out.
    public static func glyph(for character: Character) -> (scalar: Unicode.Scalar, width: Int)? {
        var scalars = character.unicodeScalars
        if scalars.count > 1 {
            // The standard library's own canonical composition (public, if underscored).
            scalars = String(decoding: String(character)._nfcCodeUnits, as: UTF8.self).unicodeScalars
        }
        guard let first = scalars.first else { return nil }
        let width = of(first)
        return width > 0 ? (first, width) : nil
    }

    /// The cells `text` takes, laid out a glyph per character.
    public static func of(text: String) -> Int {
        text.reduce(0) { $0 + (glyph(for: $1)?.width ?? 0) }
    }
}
