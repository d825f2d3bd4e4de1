/// A minimal deflate encoder (RFC 1951) for filtered light-show rows: one block with a Huffman code fixed in
/// advance, literals, and repeats of the previous byte as (length, distance 1) pairs. SUB-filtered frames are
/// long runs of zeros, so this does in one pass with 8-byte run scanning what zlib's RLE strategy does with a
/// hash window to maintain, at a fraction of the cost.
struct RunLengthDeflater {
    /// Output buffer position and bit accumulator (deflate packs bits LSB first).
    private var output: UnsafeMutablePointer<UInt8>
    private var position = 0
    private var accumulator: UInt64 = 0
    private var bitCount = 0
    private var previous: UInt8 = 0
    private var hasHistory = false

    /// Upper bound of the output for `count` input bytes (10 bits per literal at worst, plus the header).
    static func bound(_ count: Int) -> Int { count + count / 4 + 512 }

    /// Starts a stream writing into `output` (with room for `bound` of the whole input).
    init(output: UnsafeMutablePointer<UInt8>) {
        self.output = output
        for code in Tables.header { write(UInt64(code.bits), bits: Int(code.count)) }
    }

    /// Compresses `count` more bytes.
    mutating func compress(_ input: UnsafePointer<UInt8>, count: Int) {
        var index = 0
        if !hasHistory && count > 0 {
            literal(input[0])
            previous = input[0]
            hasHistory = true
            index = 1
        }
        while index < count {
            let run = Self.runLength(of: previous, in: input + index, limit: count - index)
            if run >= 3 {
                var left = run
                while left >= 3 {
                    // Never leave a tail of 1–2 bytes that a match can't cover.
                    let take = left > 258 && left - 258 < 3 ? left - 3 : min(left, 258)
                    let code = Tables.lengthCodes[take]
                    write(UInt64(code.bits), bits: Int(code.count))
                    left -= take
                }
                for _ in 0..<left { literal(previous) }
                index += run
            } else {
                let byte = input[index]
                literal(byte)
                previous = byte
                index += 1
            }
        }
    }

    /// Ends the block and the stream; returns the bytes written.
    mutating func finish() -> Int {
        write(UInt64(Tables.endOfBlock.bits), bits: Int(Tables.endOfBlock.count))
        while bitCount > 0 {
            output[position] = UInt8(truncatingIfNeeded: accumulator)
            position += 1
            accumulator >>= 8
            bitCount = max(0, bitCount - 8)
        }
        return position
    }

    @inline(__always)
    private mutating func literal(_ byte: UInt8) {
        let code = Tables.literalCodes[Int(byte)]
        write(UInt64(code.bits), bits: Int(code.count))
    }

    @inline(__always)
    private mutating func write(_ value: UInt64, bits: Int) {
        accumulator |= value << UInt64(bitCount)
        bitCount += bits
        if bitCount >= 32 {
            UnsafeMutableRawPointer(output + position).storeBytes(of: UInt32(truncatingIfNeeded: accumulator).littleEndian, as: UInt32.self)
            position += 4
            accumulator >>= 32
            bitCount -= 32
        }
    }

    /// How many bytes from `start` equal `byte`, up to `limit`; compares 8 bytes at a time.
    @inline(__always)
    private static func runLength(of byte: UInt8, in start: UnsafePointer<UInt8>, limit: Int) -> Int {
        let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
        var length = 0
        while length + 8 <= limit {
            let difference = UnsafeRawPointer(start + length).loadUnaligned(as: UInt64.self) ^ pattern
            if difference != 0 { return length + (UInt64(littleEndian: difference).trailingZeroBitCount >> 3) }
            length += 8
        }
        while length < limit && start[length] == byte { length += 1 }
        return length
    }

    /// One Huffman block whose code is fixed in advance (RFC 1951 §3.2.7) and shaped for filtered frames:
    /// a maximal repeat (length 258, distance 1) costs 2 bits instead of the fixed code's 13, literals 9–10 bits.
    /// Built once; the header describing it is the same for every frame.
    private enum Tables {
        struct Code {
            var bits: UInt32
            var count: UInt8
        }

        /// Literals whose values are rare after SUB filtering (differences near ±128) get the longer codes.
        static let rareLiterals = 114...142

        /// Code length of each literal/length symbol 0…285: 258-byte repeats 1 bit, the rest so the code is complete
        /// (2⁻¹ + 227·2⁻⁹ + 58·2⁻¹⁰ = 1).
        static let literalLengths: [Int] = (0...285).map { symbol in
            switch symbol {
            case 285: 1
            case 0...255: rareLiterals.contains(symbol) ? 10 : 9
            default: 10  // end of block and the other lengths
            }
        }

        static let literalCodes: [Code] = canonical(literalLengths)

        /// Match length (3…258) → length symbol, its extra bits and the 1-bit distance code (distance 1), as one code.
        static let lengthCodes: [Code] = {
            let bases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
            let extras = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
            var table = [Code](repeating: Code(bits: 0, count: 0), count: 259)
            for length in 3...258 {
                guard let slot = bases.lastIndex(where: { $0 <= length }) else { continue }
                let symbolCode = literalCodes[257 + slot]
                var bits = symbolCode.bits
                var count = Int(symbolCode.count)
                bits |= UInt32(length - bases[slot]) << count  // extra bits go LSB first as they are
                count += extras[slot]
                count += 1  // distance code 0 = distance 1, the only one: a single 0 bit
                table[length] = Code(bits: bits, count: UInt8(count))
            }
            return table
        }()

        static let endOfBlock: Code = literalCodes[256]

        /// The block header: BFINAL, BTYPE = 10, then the code lengths, themselves coded as RFC 1951 describes.
        static let header: [Code] = {
            var out: [Code] = []
            func put(_ value: Int, _ count: Int) { out.append(Code(bits: UInt32(value), count: UInt8(count))) }
            put(1, 1)  // BFINAL
            put(2, 2)  // BTYPE = 10, dynamic codes
            put(literalLengths.count - 257, 5)  // HLIT
            put(0, 5)  // HDIST: one distance code
            // Code-length alphabet: only lengths 1, 9 and 10 occur. Its own code lengths, in the RFC's order.
            let lengthOfLength: [Int: Int] = [9: 1, 1: 2, 10: 2]
            let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
            let used = (order.lastIndex { lengthOfLength[$0] != nil } ?? 0) + 1
            put(used - 4, 4)  // HCLEN
            for symbol in order.prefix(used) { put(lengthOfLength[symbol] ?? 0, 3) }
            var alphabet = [Int](repeating: 0, count: 19)
            for (symbol, length) in lengthOfLength { alphabet[symbol] = length }
            let lengthCodes = canonical(alphabet)
            for length in literalLengths + [1] {  // every literal/length code length, then the distance code's
                let code = lengthCodes[length]
                out.append(code)
            }
            return out
        }()

        /// Canonical Huffman codes for code lengths (RFC 1951 §3.2.2), bit-reversed for LSB-first packing.
        static func canonical(_ lengths: [Int]) -> [Code] {
            let maxLength = lengths.max() ?? 0
            var counts = [Int](repeating: 0, count: maxLength + 1)
            for length in lengths where length > 0 { counts[length] += 1 }
            var next = [Int](repeating: 0, count: maxLength + 2)
            var code = 0
            for bits in 1...max(1, maxLength) {
                code = (code + (bits - 1 < counts.count ? counts[bits - 1] : 0)) << 1
                next[bits] = code
            }
            return lengths.map { length in
                guard length > 0 else { return Code(bits: 0, count: 0) }
                let value = next[length]
                next[length] += 1
                var reversed: UInt32 = 0
                for bit in 0..<length where value & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
                return Code(bits: reversed, count: UInt8(length))
            }
        }
    }
}
