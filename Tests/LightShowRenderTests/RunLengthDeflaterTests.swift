import CZlib
@testable import LightShowRender
import Testing

/// The hand-written deflate encoder, inflated by zlib: every byte must come back.
@Suite struct RunLengthDeflaterTests {
    private func deflate(_ input: [UInt8], chunk: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: RunLengthDeflater.bound(input.count))
        let written = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { source in
                var encoder = RunLengthDeflater(output: out.baseAddress!)
                var offset = 0
                while offset < input.count {
                    let count = min(chunk, input.count - offset)
                    encoder.compress(source.baseAddress! + offset, count: count)
                    offset += count
                }
                return encoder.finish()
            }
        }
        return Array(output[0..<written])
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

    @Test func roundTripsRunsOfEveryAwkwardLength() {
        var input: [UInt8] = []
        var state: UInt32 = 1
        // Runs around the 3-byte minimum and the 258-byte maximum, with literals between.
        for length in Array(1...12) + [255, 256, 257, 258, 259, 260, 261, 262, 515, 516, 517, 1000, 5000] {
            state = state &* 1_664_525 &+ 1_013_904_223
            let byte = UInt8(truncatingIfNeeded: state >> 24)
            input += [UInt8](repeating: byte, count: length)
            input += [byte &+ 1, byte &+ 2, 0, 0]
        }
        for _ in 0..<3000 {
            state = state &* 1_664_525 &+ 1_013_904_223
            input.append(UInt8(truncatingIfNeeded: state >> 24))
        }
        for chunk in [1, 7, 258, 4096, input.count] {
            let compressed = deflate(input, chunk: chunk)
            #expect(inflate(compressed, expectedCount: input.count) == input, "chunks of \(chunk)")
            #expect(compressed.count <= RunLengthDeflater.bound(input.count))
        }
        #expect(inflate(deflate([], chunk: 1), expectedCount: 0) == [])
        #expect(inflate(deflate([0, 0, 0, 0, 0, 0], chunk: 6), expectedCount: 6) == [0, 0, 0, 0, 0, 0])
    }
}
