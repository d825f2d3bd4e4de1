import CZlib

/// Writes 8-bit RGB PNGs with plain zlib: one fixed filter for every row and fast deflate, which measured
/// faster here than libpng's simplified API and libspng at the same settings (see Tests/Benchmarks/record-speed.sh).
/// Output depends only on the pixels, so frames are byte-identical across runs. One per thread.
public final class PNGEncoder {
    /// The PNG row filter applied to every row.
    public enum Filter: UInt8, Sendable {
        case none = 0, sub = 1, up = 2
    }

    public let filter: Filter
    private let deflater: DeflateStream
    private var rowScratch: [UInt8] = []

    /// Defaults chosen by measurement on light-show frames: SUB + run-length deflate is as fast as level 1
    /// and smaller, since circles and gradient rows are runs of one colour.
    public init(filter: Filter = .sub, level: Int32 = 1, runLength: Bool = true) throws(PNGError) {
        self.filter = filter
        deflater = try DeflateStream(level: level, strategy: runLength ? Z_RLE : Z_DEFAULT_STRATEGY)
    }

    /// The complete PNG file for `image`.
    public func encode(_ image: Framebuffer) throws(PNGError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else { throw PNGError("cannot encode an empty image") }
        let rowBytes = image.rowBytes
        let filteredRow = rowBytes + 1
        // Feed deflate a band of rows at a time, so the filtered copy stays in cache.
        let bandRows = max(1, 65_536 / filteredRow)
        if rowScratch.count < filteredRow * bandRows { rowScratch = [UInt8](repeating: 0, count: filteredRow * bandRows) }
        let idatBound = deflater.bound(filteredRow * image.height)
        var output = [UInt8](repeating: 0, count: 8 + 25 + 8 + idatBound + 4 + 12)
        var ihdr = [UInt8]()
        ihdr.appendBigEndian(UInt32(image.width))
        ihdr.appendBigEndian(UInt32(image.height))
        ihdr.append(contentsOf: [8, 2, 0, 0, 0])  // 8 bits, truecolour, deflate, adaptive-filter method 0, no interlace

        let written: Int = try output.withUnsafeMutableBufferPointer { (out) throws(PNGError) -> Int in
            let base = out.baseAddress!
            var position = 0
            for byte in [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] as [UInt8] { base[position] = byte; position += 1 }
            position = Self.writeChunk(type: "IHDR", data: ihdr, at: base, position)

            let idatStart = position
            let data = base + idatStart + 8
            try deflater.begin(output: data, capacity: idatBound)
            var compressed = 0
            try image.pixels.withUnsafeBufferPointer { (pixels) throws(PNGError) in
                try rowScratch.withUnsafeMutableBufferPointer { (scratch) throws(PNGError) in
                    let source = pixels.baseAddress!, band = scratch.baseAddress!
                    var y = 0
                    while y < image.height {
                        let rows = min(bandRows, image.height - y)
                        for r in 0..<rows {
                            Self.filterRow(source + (y + r) * rowBytes, previous: y + r > 0 ? source + (y + r - 1) * rowBytes : nil,
                                           into: band + r * filteredRow, count: rowBytes, filter: filter)
                        }
                        y += rows
                        compressed = try deflater.compress(band, count: rows * filteredRow, finish: y == image.height)
                    }
                }
            }
            Self.storeBigEndian(UInt32(compressed), at: base + idatStart)
            for (offset, byte) in "IDAT".utf8.enumerated() { base[idatStart + 4 + offset] = byte }
            let crc = crc32(0, base + idatStart + 4, uInt(4 + compressed))
            Self.storeBigEndian(UInt32(crc), at: data + compressed)
            position = idatStart + 8 + compressed + 4
            return Self.writeChunk(type: "IEND", data: [], at: base, position)
        }
        output.removeLast(output.count - written)
        return output
    }

    @inline(__always)
    private static func filterRow(
        _ row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>?, into out: UnsafeMutablePointer<UInt8>,
        count: Int, filter: Filter
    ) {
        out[0] = filter.rawValue
        let dest = out + 1
        switch filter {
        case .none:
            dest.update(from: row, count: count)
        case .sub:
            for i in 0..<min(3, count) { dest[i] = row[i] }
            var i = 3
            while i < count { dest[i] = row[i] &- row[i - 3]; i += 1 }
        case .up:
            if let previous {
                for i in 0..<count { dest[i] = row[i] &- previous[i] }
            } else {
                dest.update(from: row, count: count)
            }
        }
    }

    private static func writeChunk(type: String, data: [UInt8], at base: UnsafeMutablePointer<UInt8>, _ position: Int) -> Int {
        storeBigEndian(UInt32(data.count), at: base + position)
        var cursor = position + 4
        for byte in type.utf8 { base[cursor] = byte; cursor += 1 }
        for byte in data { base[cursor] = byte; cursor += 1 }
        let crc = crc32(0, base + position + 4, uInt(4 + data.count))
        storeBigEndian(UInt32(crc), at: base + cursor)
        return cursor + 4
    }

    private static func storeBigEndian(_ value: UInt32, at pointer: UnsafeMutablePointer<UInt8>) {
        pointer[0] = UInt8(value >> 24); pointer[1] = UInt8(value >> 16 & 0xFF)
        pointer[2] = UInt8(value >> 8 & 0xFF); pointer[3] = UInt8(value & 0xFF)
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
