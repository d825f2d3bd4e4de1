import CZlib
@testable import LightShowRender
import Testing

/// The hand-written deflate encoder, inflated by zlib: every row must come back, behind its filter byte.
@Suite struct RowMatchDeflaterTests {
    /// Deflates `pixels` as rows of `rowBytes` bytes; returns the stream and the scanlines it should inflate to.
    private func deflate(_ pixels: [UInt8], rowBytes: Int, deflater: RowMatchDeflater? = nil) -> (deflated: [UInt8], scanlines: [UInt8]) {
        let deflater = deflater ?? RowMatchDeflater(rowBytes: rowBytes, bytesPerPixel: 3)
        let rows = pixels.count / rowBytes
        let deflated = pixels.withUnsafeBufferPointer { Array(deflater.deflate($0.baseAddress!, rows: rows).stream) }
        var scanlines: [UInt8] = []
        for row in 0..<rows { scanlines += [0] + pixels[row * rowBytes..<(row + 1) * rowBytes] }
        return (deflated, scanlines)
    }

    private func roundTrips(_ pixels: [UInt8], rowBytes: Int, deflater: RowMatchDeflater? = nil) -> Bool {
        let (deflated, scanlines) = deflate(pixels, rowBytes: rowBytes, deflater: deflater)
        return inflate(deflated, expectedCount: scanlines.count) == scanlines
    }

    private func inflate(_ compressed: [UInt8], expectedCount: Int) -> [UInt8]? {
        var stream = z_stream()
        guard lightshow_inflateInit2(&stream, -15) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = compressed
        var output = [UInt8](repeating: 0, count: expectedCount + 16)
        let status = input.withUnsafeMutableBufferPointer { inPointer in
            output.withUnsafeMutableBufferPointer { outPointer in
                stream.next_in = inPointer.baseAddress
                stream.avail_in = uInt(inPointer.count)
                stream.next_out = outPointer.baseAddress
                stream.avail_out = uInt(outPointer.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output[0..<Int(stream.total_out)])
    }

    private func random(_ count: Int, seed: UInt32) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    @Test func roundTripsRunsOfEveryAwkwardLength() {
        var input: [UInt8] = []
        // Runs around the 3-byte minimum and the 258-byte maximum, with literals between, and repeated rows.
        for (index, length) in (Array(1...12) + [255, 256, 257, 258, 259, 260, 261, 262, 515, 516, 517, 1000, 5000]).enumerated() {
            let byte = UInt8(truncatingIfNeeded: index &* 37)
            input += [UInt8](repeating: byte, count: length)
            input += [byte &+ 1, byte &+ 2, 0, 0]
        }
        input += random(3000, seed: 1)
        input += input.suffix(4000)
        // Rows of one pixel (matches straight above span dozens of rows), odd lengths, and a 720p row.
        for rowBytes in [3, 4, 96, 97, 3840] {
            let rows = [UInt8](input.prefix(input.count / rowBytes * rowBytes))
            #expect(roundTrips(rows, rowBytes: rowBytes), "rows of \(rowBytes)")
            // The same rows again and again: matches straight above run from row to row.
            let repeated = Array([[UInt8]](repeating: Array(rows.prefix(rowBytes * 2)), count: 300).joined())
            #expect(roundTrips(repeated, rowBytes: rowBytes), "repeated rows of \(rowBytes)")
        }
    }

    /// Incompressible input fills many blocks; one deflater serves stream after stream.
    @Test func noiseSpansBlocksAndTheDeflaterIsReusable() {
        let deflater = RowMatchDeflater(rowBytes: 300, bytesPerPixel: 3)
        let rows = DeflateBlock.capacity * 3 / 300 + 1  // noise is all literals: over three blocks' worth
        for seed in [UInt32(1), 2] {
            #expect(roundTrips(random(300 * rows, seed: seed), rowBytes: 300, deflater: deflater))
        }
    }

    /// Rows at and past deflate's 32 KB window: matches reach only as far back as deflate allows.
    @Test(arguments: [10_922, 10_923, 10_925, 11_000].map { $0 * 3 })
    func longRows(rowBytes: Int) {
        var rows = [UInt8](repeating: 7, count: rowBytes * 3)
        for index in stride(from: 0, to: rows.count, by: 1001) { rows[index] = UInt8(truncatingIfNeeded: index) }
        #expect(roundTrips(rows, rowBytes: rowBytes))
    }

    @Test func tinyInputs() {
        for pixels in [[0, 0, 0], [7, 7, 7, 7, 7, 7], [1, 2, 3, 1, 2, 3, 1, 2, 3], [9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9]] as [[UInt8]] {
            #expect(roundTrips(pixels, rowBytes: 3), "\(pixels)")
        }
    }
}
