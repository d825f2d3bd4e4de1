/// The fixed parts of deflate's alphabets (RFC 1951 §3.2.5): how match lengths and distances map to symbols and
/// extra bits.
enum DeflateAlphabet {
    /// Literal/length symbols: 0–255 literals, 256 end of block, 257–285 lengths.
    static let literalLengthCount = 286
    static let endOfBlock = 256
    static let distanceCount = 30
    /// The longest match and the farthest distance deflate can express.
    static let maxMatch = 258
    static let window = 32_768

    /// Length symbols' first lengths and extra bits (symbol 257 + index).
    static let lengthBases: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtraBits: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBases: [Int] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
        8193, 12289, 16385, 24577,
    ]
    static let distanceExtraBits: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// Match length (0…258) → index into `lengthBases` of its symbol (meaningful from 3).
    static let lengthIndex: [Int] = (0...maxMatch).map { length in lengthBases.lastIndex { $0 <= length } ?? 0 }

    /// Symbol for a match `distance` (1…32768).
    static func distanceSymbol(_ distance: Int) -> Int {
        distanceBases.lastIndex { $0 <= distance } ?? 0
    }

    /// Code-length symbols in the order the block header lists their own code lengths (§3.2.7).
    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
}
