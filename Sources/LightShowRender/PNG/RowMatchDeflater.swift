import CLibDeflate

/// Raw deflate (RFC 1951) of unfiltered PNG scanlines, read in place: each row as its filter byte (0, None) and then
/// its pixels. Instead of hashing every position to find matches (what costs zlib and libdeflate most of their
/// time), each position is compared with a few fixed places: the pixel to its left, and the same pixel one row up
/// and one or two pixels either side. Light-show frames repeat exactly there (gradient rows, circle interiors, the
/// circles' edges moving a pixel a row), so these few candidates find nearly all the matches a full search would,
/// 8 bytes per comparison. Literals and matches are coded with Huffman codes built per block; the Adler-32 of the
/// scanlines is summed along the way.
final class RowMatchDeflater {
    /// A candidate in the row above, `shift` bytes right of straight above, and its index among the distances.
    private struct Diagonal {
        var shift: Int
        var index: Int
    }

    private let rowBytes: Int
    private let bytesPerPixel: Int
    // The candidates, tried cheapest first (a tie goes to the one tried first): the pixel on the left (distance
    // index 0), straight above, then the diagonals. Only the match straight above runs on across rows.
    private let straightAbove: Int?
    private let diagonals: [Diagonal]
    private let block: DeflateBlock
    private let writer = BitWriter()

    /// - Parameters:
    ///   - rowBytes: pixel bytes per row (the stream adds a filter byte to each).
    ///   - bytesPerPixel: distance to the pixel on the left.
    init(rowBytes: Int, bytesPerPixel: Int) {
        let rowLength = rowBytes + 1
        var distances = [bytesPerPixel]
        var straightAbove: Int?
        var diagonals: [Diagonal] = []
        // Straight above, then one and two pixels either side; deflate reaches back at most its window.
        for pixels in [0, 1, -1, 2, -2] {
            let shift = pixels * bytesPerPixel
            guard rowLength - shift <= DeflateAlphabet.window, abs(shift) < rowBytes else { continue }
            if shift == 0 { straightAbove = distances.count } else { diagonals.append(Diagonal(shift: shift, index: distances.count)) }
            distances.append(rowLength - shift)
        }
        self.rowBytes = rowBytes
        self.bytesPerPixel = bytesPerPixel
        self.straightAbove = straightAbove
        self.diagonals = diagonals
        block = DeflateBlock(distances: distances)
    }

    /// Deflates an image's `rows` scanlines, each a filter byte 0 and then `rowBytes` bytes, the first at `pixels`.
    /// Returns the raw deflate stream (valid until the next call) and the scanlines' Adler-32, which a zlib stream
    /// ends with.
    func deflate(_ pixels: UnsafePointer<UInt8>, rows: Int) -> (stream: UnsafeBufferPointer<UInt8>, checksum: UInt32) {
        writer.reset()
        block.reset()
        let count = rowBytes, limit = DeflateAlphabet.maxMatch
        var y = 0
        var row = pixels
        var checksum = rows > 0 ? Self.adler32(1, scanline: row, count: count) : 1
        /// Where in the row the stream is: -1 for the filter byte, then the pixel bytes.
        var offset = -1
        // Offsets stay inside the image: wrapping arithmetic spares the hot loop overflow checks.
        diagonals.withUnsafeBufferPointer { diagonals in
            while y < rows {
                var best = 0, bestCandidate = 0
                if offset < 0 {
                    // A filter byte matches the one above it, and the match runs on into the row.
                    if y > 0, let straightAbove {
                        best = 1 &+ aboveRun(row, inRow: count, rowsAfter: rows &- y &- 1, limit: limit &- 1)
                        bestCandidate = straightAbove
                    }
                } else {
                    let here = row + offset, inRow = count &- offset
                    // Edges and text try every candidate, mostly in vain: the first 3 bytes (a match's minimum)
                    // decide. With under 4 bytes left in the row, the full comparison does.
                    let head = inRow >= 4 ? Self.firstThreeBytes(here) : 0
                    if offset >= bytesPerPixel && (inRow < 4 || Self.firstThreeBytes(here - bytesPerPixel) == head) {
                        best = Self.matchLength(here, here - bytesPerPixel, limit: min(limit, inRow))
                    }
                    if best < limit && y > 0 {
                        if let straightAbove, inRow < 4 || Self.firstThreeBytes(here - count) == head {
                            let length = aboveRun(here, inRow: inRow, rowsAfter: rows &- y &- 1, limit: limit)
                            if length > best {
                                best = length
                                bestCandidate = straightAbove
                            }
                        }
                        for diagonal in diagonals where best < limit {
                            let start = offset &+ diagonal.shift
                            let candidateLimit = min(inRow, count &- start)
                            guard start >= 0, candidateLimit > best else { continue }
                            let source = row - count + start
                            if candidateLimit >= 4 && Self.firstThreeBytes(source) != head { continue }
                            let length = Self.matchLength(here, source, limit: min(limit, candidateLimit))
                            if length > best {
                                best = length
                                bestCandidate = diagonal.index
                            }
                        }
                    }
                }
                let step: Int
                if best >= 3 {
                    block.appendMatch(length: best, candidate: bestCandidate)
                    step = best
                } else {
                    block.appendLiteral(offset < 0 ? 0 : row[offset])
                    step = 1
                }
                offset &+= step
                while offset >= count {
                    offset &-= count &+ 1
                    y &+= 1
                    row += count
                    // Summed as the row is reached, while it is in cache for matching.
                    if y < rows { checksum = Self.adler32(checksum, scanline: row, count: count) }
                }
                if block.isFull { block.write(to: writer, final: false) }
            }
        }
        block.write(to: writer, final: true)
        writer.flush()
        return (writer.bytes, checksum)
    }

    /// Length of the match, up to `limit`, between the stream from `here` (`inRow` pixel bytes left in its row,
    /// `rowsAfter` rows after it) and the same place a row up. Filter bytes always match, so this match alone runs
    /// on from row to row.
    @inline(__always)
    private func aboveRun(_ here: UnsafePointer<UInt8>, inRow: Int, rowsAfter: Int, limit: Int) -> Int {
        var here = here, span = inRow, rowsAfter = rowsAfter
        var length = 0
        while true {
            let matched = Self.matchLength(here, here - rowBytes, limit: min(span, limit &- length))
            length &+= matched
            guard matched == span, length < limit, rowsAfter > 0 else { return length }
            length &+= 1  // the next row's filter byte
            here += span
            span = rowBytes
            rowsAfter &-= 1
        }
    }

    /// How many bytes from `a` equal those from `b`, up to `limit`. Most comparisons are long runs that match to the
    /// limit: 32 bytes at a time while all match, then 8 at a time to find where they differ.
    @inline(__always)
    private static func matchLength(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, limit: Int) -> Int {
        var length = 0
        while length &+ 32 <= limit {
            let x = UnsafeRawPointer(a + length), y = UnsafeRawPointer(b + length)
            let difference = (x.loadUnaligned(as: UInt64.self) ^ y.loadUnaligned(as: UInt64.self))
                | (x.loadUnaligned(fromByteOffset: 8, as: UInt64.self) ^ y.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                | (x.loadUnaligned(fromByteOffset: 16, as: UInt64.self) ^ y.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
                | (x.loadUnaligned(fromByteOffset: 24, as: UInt64.self) ^ y.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            if difference != 0 { break }
            length &+= 32
        }
        while length &+ 8 <= limit {
            let difference = UnsafeRawPointer(a + length).loadUnaligned(as: UInt64.self)
                ^ UnsafeRawPointer(b + length).loadUnaligned(as: UInt64.self)
            if difference != 0 { return length &+ (UInt64(littleEndian: difference).trailingZeroBitCount &>> 3) }
            length &+= 8
        }
        while length < limit && a[length] == b[length] { length &+= 1 }
        return length
    }

    /// `adler` continued over a scanline: its filter byte 0 (the first sum stays, the second adds it), then `count`
    /// bytes from `row` (libdeflate's vectorized Adler-32).
    private static func adler32(_ adler: UInt32, scanline row: UnsafePointer<UInt8>, count: Int) -> UInt32 {
        let a = adler & 0xFFFF
        let afterFilterByte = (((adler >> 16) + a) % 65_521) << 16 | a
        return libdeflate_adler32(afterFilterByte, row, count)
    }

    /// The 3 bytes at `pointer` (which has at least 4 readable), as one integer.
    @inline(__always)
    private static func firstThreeBytes(_ pointer: UnsafePointer<UInt8>) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt32.self)) & 0x00FF_FFFF
    }
}
