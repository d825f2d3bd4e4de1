/// One deflate block in the making (RFC 1951 §3.2.7): literals and matches, counted as they come, then written with
/// Huffman codes built for exactly this block. Reused block after block; buffers owned here, freed in `deinit`.
final class DeflateBlock {
    /// Tokens per block (a 720p frame has ~28 000). Smaller blocks fit their codes better to a region (circle edges,
    /// toolbar text) but cost a header and a code build each; measured on recorded frames, 4096 gave 24.5 KB per
    /// frame, 16 384 gave 24.8 KB and was 10% faster.
    static let capacity = 16_384

    /// Bit 31 set: a match, with the candidate distance's index in bits 16–30 and the length in bits 0–15.
    /// Otherwise a literal byte.
    private let tokens = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
    private var count = 0
    /// Counted per byte, per match length and per candidate distance; turned into symbol counts when written.
    private let literalCounts = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 256)
    private let lengthCounts = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: DeflateAlphabet.maxMatch + 1)
    private let candidateCounts: UnsafeMutableBufferPointer<UInt32>
    /// The matches' possible distances, as symbols and extra bits; a match names one by index.
    private let distances: [(symbol: Int, extra: UInt32, extraBits: Int)]
    private let matchFlag: UInt32 = 1 << 31

    init(distances: [Int]) {
        self.distances = distances.map { distance in
            let symbol = DeflateAlphabet.distanceSymbol(distance)
            return (symbol, UInt32(distance - DeflateAlphabet.distanceBases[symbol]), DeflateAlphabet.distanceExtraBits[symbol])
        }
        candidateCounts = .allocate(capacity: distances.count)
        for counts in [literalCounts, lengthCounts, candidateCounts] { counts.initialize(repeating: 0) }
    }

    deinit {
        tokens.deallocate()
        for counts in [literalCounts, lengthCounts, candidateCounts] { counts.deallocate() }
    }

    var isFull: Bool { count == Self.capacity }

    // Called for every token: wrapping arithmetic, as counts can't exceed the capacity.
    @inline(__always)
    func appendLiteral(_ byte: UInt8) {
        tokens[count] = UInt32(byte)
        count &+= 1
        literalCounts[Int(byte)] &+= 1
    }

    /// A match of `length` (3…258) at the distance `candidate` indexes.
    @inline(__always)
    func appendMatch(length: Int, candidate: Int) {
        tokens[count] = matchFlag | UInt32(truncatingIfNeeded: candidate) << 16 | UInt32(truncatingIfNeeded: length)
        count &+= 1
        lengthCounts[length] &+= 1
        candidateCounts[candidate] &+= 1
    }

    /// Writes the block (header, tokens, end of block) and empties it for the next one.
    func write(to writer: BitWriter, final: Bool) {
        let (literalLengthCounts, distanceCounts) = symbolCounts()
        let literalCode = HuffmanCode(counts: literalLengthCounts, limit: 15)
        let distanceCode = HuffmanCode(counts: distanceCounts, limit: 15)
        let header = DeflateBlockHeader(literalLengths: literalCode.lengths, distanceLengths: distanceCode.lengths)

        var size = header.bitCount
        for (symbol, count) in literalLengthCounts.enumerated() where count > 0 {
            let extra = symbol > DeflateAlphabet.endOfBlock ? DeflateAlphabet.lengthExtraBits[symbol - 257] : 0
            size += Int(count) * (Int(literalCode.lengths[symbol]) + extra)
        }
        for (symbol, count) in distanceCounts.enumerated() where count > 0 {
            size += Int(count) * (Int(distanceCode.lengths[symbol]) + DeflateAlphabet.distanceExtraBits[symbol])
        }
        writer.reserve(size / 8 + 1)

        writer.write(final ? 1 : 0, bits: 1)
        writer.write(2, bits: 2)  // dynamic Huffman codes
        header.write(to: writer)
        emitTokens(to: writer, literalCode: literalCode, distanceCode: distanceCode)
        reset()
    }

    /// Empties the block.
    func reset() {
        count = 0
        for counts in [literalCounts, lengthCounts, candidateCounts] { counts.update(repeating: 0) }
    }

    /// The block's literal/length and distance symbol counts, with the one end of block.
    private func symbolCounts() -> (literalLength: [UInt32], distance: [UInt32]) {
        var literalLength = Array(literalCounts) + [UInt32](repeating: 0, count: DeflateAlphabet.literalLengthCount - 256)
        literalLength[DeflateAlphabet.endOfBlock] = 1
        let lengthIndex = DeflateAlphabet.lengthIndex
        for length in 3...DeflateAlphabet.maxMatch { literalLength[257 + lengthIndex[length]] += lengthCounts[length] }
        var distance = [UInt32](repeating: 0, count: DeflateAlphabet.distanceCount)
        for (candidate, code) in distances.enumerated() { distance[code.symbol] += candidateCounts[candidate] }
        return (literalLength, distance)
    }

    private func emitTokens(to writer: BitWriter, literalCode: HuffmanCode, distanceCode: HuffmanCode) {
        // Every code with its extra bits, packed as code | bit count << 32: literals 0–255, end of block 256,
        // a match of length n at 256 + n; and one per candidate distance.
        var symbols = (0...DeflateAlphabet.endOfBlock).map { Self.pack(literalCode.codes[$0], bits: Int(literalCode.lengths[$0])) }
        symbols += [0, 0]  // lengths 1 and 2: no match is that short
        for length in 3...DeflateAlphabet.maxMatch {
            let index = DeflateAlphabet.lengthIndex[length]
            let bits = Int(literalCode.lengths[257 + index])
            let extra = UInt32(length - DeflateAlphabet.lengthBases[index]) << UInt32(bits)
            symbols.append(Self.pack(literalCode.codes[257 + index] | extra, bits: bits + DeflateAlphabet.lengthExtraBits[index]))
        }
        let distanceSymbols = distances.map { distance in
            let bits = Int(distanceCode.lengths[distance.symbol])
            return Self.pack(distanceCode.codes[distance.symbol] | distance.extra << UInt32(bits), bits: bits + distance.extraBits)
        }
        let tokenCount = count
        symbols.withUnsafeBufferPointer { symbols in
            distanceSymbols.withUnsafeBufferPointer { distanceSymbols in
                writer.withCursor { cursor in
                    for index in 0..<tokenCount {
                        let token = tokens[index]
                        if token & matchFlag == 0 {
                            cursor.write(packed: symbols[Int(token)])
                        } else {
                            cursor.write(packed: symbols[256 &+ Int(token & 0xFFFF)])
                            cursor.write(packed: distanceSymbols[Int(token >> 16 & 0x7FFF)])
                        }
                    }
                    cursor.write(packed: symbols[DeflateAlphabet.endOfBlock])
                }
            }
        }
    }

    private static func pack(_ code: UInt32, bits: Int) -> UInt64 { UInt64(code) | UInt64(bits) << 32 }
}
