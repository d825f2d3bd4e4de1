/// A minimal deflate encoder (RFC 1951) for filtered light-show rows: one block with the fixed Huffman codes,
/// literals, and repeats of the previous byte as (length, distance 1) pairs. SUB-filtered frames are long runs
/// of zeros, so this does in one pass with 8-byte run scanning what zlib's RLE strategy does with a hash window
/// to maintain, at about a fifth of the cost, for output a little larger.
struct RunLengthDeflater {
    /// Output buffer position and bit accumulator (deflate packs bits LSB first).
    private var output: UnsafeMutablePointer<UInt8>
    private var position = 0
    private var accumulator: UInt64 = 0
    private var bitCount = 0
    private var previous: UInt8 = 0
    private var hasHistory = false

    /// Upper bound of the output for `count` input bytes (9 bits per literal at worst, plus framing).
    static func bound(_ count: Int) -> Int { count + count / 8 + 64 }

    /// Starts a stream writing into `output` (with room for `bound` of the whole input).
    init(output: UnsafeMutablePointer<UInt8>) {
        self.output = output
        // BFINAL = 1, BTYPE = 01 (fixed Huffman codes).
        write(0b011, bits: 3)
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
        write(0, bits: 7)  // end-of-block, symbol 256
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

    /// Fixed Huffman codes, bit-reversed for LSB-first packing.
    private enum Tables {
        struct Code {
            var bits: UInt32
            var count: UInt8
        }

        static func reversed(_ code: UInt32, _ count: Int) -> UInt32 {
            var result: UInt32 = 0
            for bit in 0..<count where code & (1 << bit) != 0 { result |= 1 << (count - 1 - bit) }
            return result
        }

        /// Literal/length symbol → code (RFC 1951 §3.2.6).
        static func symbol(_ value: Int) -> Code {
            switch value {
            case 0...143: Code(bits: reversed(UInt32(0x30 + value), 8), count: 8)
            case 144...255: Code(bits: reversed(UInt32(0x190 + value - 144), 9), count: 9)
            case 256...279: Code(bits: reversed(UInt32(value - 256), 7), count: 7)
            default: Code(bits: reversed(UInt32(0xC0 + value - 280), 8), count: 8)
            }
        }

        static let literalCodes: [Code] = (0..<256).map(symbol)

        /// Match length (3…258) → length symbol, its extra bits and distance code 0 (distance 1), as one code.
        static let lengthCodes: [Code] = {
            let bases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
            let extras = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
            var table = [Code](repeating: Code(bits: 0, count: 0), count: 259)
            for length in 3...258 {
                let slot = (bases.lastIndex { $0 <= length })!
                let symbolCode = symbol(257 + slot)
                var bits = symbolCode.bits
                var count = Int(symbolCode.count)
                bits |= UInt32(length - bases[slot]) << count  // extra bits, LSB first as they are
                count += extras[slot]
                count += 5  // distance code 0 (five zero bits) = distance 1
                table[length] = Code(bits: bits, count: UInt8(count))
            }
            return table
        }()
    }
}
