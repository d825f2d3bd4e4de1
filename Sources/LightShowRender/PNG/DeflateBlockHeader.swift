/// The code description that opens a dynamic-Huffman block (RFC 1951 §3.2.7): HLIT, HDIST, HCLEN, the code-length
/// code, then the literal/length and distance code lengths, run-length coded with symbols 16–18.
struct DeflateBlockHeader {
    private let literalCount: Int
    private let distanceCount: Int
    /// Code-length symbols (0–18) with their extra-bit values.
    private let items: [(symbol: Int, extra: UInt32)]
    private let codeLengthCode: HuffmanCode
    private let codeLengthCount: Int
    /// Size of the header after BFINAL and BTYPE, in bits.
    let bitCount: Int

    /// Extra bits after a code-length symbol: repeat counts for 16–18.
    private static func extraBits(_ symbol: Int) -> Int {
        switch symbol {
        case 16: 2
        case 17: 3
        case 18: 7
        default: 0
        }
    }

    init(literalLengths: [UInt8], distanceLengths: [UInt8]) {
        literalCount = max(257, (literalLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        distanceCount = max(1, (distanceLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        items = Self.runs(of: Array(literalLengths.prefix(literalCount) + distanceLengths.prefix(distanceCount)))
        var counts = [UInt32](repeating: 0, count: 19)
        for item in items { counts[item.symbol] += 1 }
        codeLengthCode = HuffmanCode(counts: counts, limit: 7)
        let lengths = codeLengthCode.lengths
        codeLengthCount = max(4, (DeflateAlphabet.codeLengthOrder.lastIndex { lengths[$0] > 0 } ?? 0) + 1)
        bitCount = 5 + 5 + 4 + 3 * codeLengthCount
            + items.reduce(0) { $0 + Int(lengths[$1.symbol]) + Self.extraBits($1.symbol) }
    }

    func write(to writer: BitWriter) {
        writer.write(UInt32(literalCount - 257), bits: 5)
        writer.write(UInt32(distanceCount - 1), bits: 5)
        writer.write(UInt32(codeLengthCount - 4), bits: 4)
        for symbol in DeflateAlphabet.codeLengthOrder.prefix(codeLengthCount) {
            writer.write(UInt32(codeLengthCode.lengths[symbol]), bits: 3)
        }
        for item in items {
            writer.write(codeLengthCode.codes[item.symbol], bits: Int(codeLengthCode.lengths[item.symbol]))
            writer.write(item.extra, bits: Self.extraBits(item.symbol))
        }
    }

    /// `lengths` as code-length symbols: 17 and 18 for runs of zeros, 16 to repeat the previous length 3–6 times.
    private static func runs(of lengths: [UInt8]) -> [(symbol: Int, extra: UInt32)] {
        var items: [(symbol: Int, extra: UInt32)] = []
        var index = 0
        while index < lengths.count {
            let value = lengths[index]
            var run = 1
            while index + run < lengths.count && lengths[index + run] == value { run += 1 }
            index += run
            if value == 0 {
                while run >= 11 {
                    let take = min(run, 138)
                    items.append((18, UInt32(take - 11)))
                    run -= take
                }
                if run >= 3 {
                    items.append((17, UInt32(run - 3)))
                    run = 0
                }
            } else {
                items.append((Int(value), 0))
                run -= 1
                while run >= 3 {
                    let take = min(run, 6)
                    items.append((16, UInt32(take - 3)))
                    run -= take
                }
            }
            items += repeatElement((symbol: Int(value), extra: UInt32(0)), count: run)
        }
        return items
    }
}
