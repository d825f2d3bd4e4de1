@testable import LightShowRender
import Testing

@Suite struct Adler32Tests {
    private func checksum(_ bytes: [UInt8]) -> UInt32 {
        var adler = Adler32()
        bytes.withUnsafeBufferPointer { adler.update($0.baseAddress!, count: $0.count) }
        return adler.value
    }

    /// The textbook definition, one byte at a time.
    private func reference(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    @Test func knownValue() {
        #expect(checksum(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(checksum([]) == 1)
    }

    @Test func zeroRunsAndLongInputsMatchTheDefinition() {
        var state: UInt32 = 7
        var bytes: [UInt8] = []
        for block in 0..<400 {
            // Alternate long zero runs with noisy stretches, at odd lengths, across many 5552-byte blocks.
            let length = 37 + block * 13 % 900
            for _ in 0..<length {
                state = state &* 1_103_515_245 &+ 12_345
                bytes.append(block % 3 == 0 ? UInt8(truncatingIfNeeded: state >> 16) : 0)
            }
        }
        bytes += [UInt8](repeating: 255, count: 20_000)
        #expect(checksum(bytes) == reference(bytes))
    }
}
