import LightShowAudio
import LightShowCore
import Testing

@Suite struct PCMDecoderTests {
    private func decode(_ bytes: [UInt8], _ format: PCMFormat) -> [Float] {
        var decoder = PCMDecoder(format: format)
        return bytes.withUnsafeBytes { decoder.decode($0) }
    }

    @Test func signed16() {
        let format = PCMFormat(sampleRate: 44_100, encoding: .signed16, channels: 2)
        // 0x4000 = 0.5, 0x8000 = −1, 0x7FFF ≈ 1, 0xC000 = −0.5
        #expect(decode([0x00, 0x40, 0x00, 0x80, 0xFF, 0x7F, 0x00, 0xC0], format) == [0.5, -1, Float(32_767) / 32_768, -0.5])
    }

    @Test func signed24() {
        let format = PCMFormat(sampleRate: 48_000, encoding: .signed24, channels: 1)
        #expect(decode([0x00, 0x00, 0x40, 0x00, 0x00, 0xC0, 0x00, 0x00, 0x80], format) == [0.5, -0.5, -1])
    }

    @Test func signed32() {
        let format = PCMFormat(sampleRate: 48_000, encoding: .signed32, channels: 1)
        #expect(decode([0, 0, 0, 0x40, 0, 0, 0, 0xC0], format) == [0.5, -0.5])
    }

    @Test func float32KeepsValuesZeroesNonFiniteAndClampsToFullScale() {
        let format = PCMFormat(sampleRate: 48_000, encoding: .float32, channels: 1)
        var bytes: [UInt8] = []
        for value: Float in [0.25, -0.75, .nan, .infinity, 1e30, -3] {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 }
        }
        #expect(decode(bytes, format) == [0.25, -0.75, 0, 0, 1, -1])
    }

    @Test func partialFrameWaitsForTheRest() {
        var decoder = PCMDecoder(format: PCMFormat(sampleRate: 44_100, encoding: .signed16, channels: 2))
        // One frame and one byte: the frame comes out, the byte waits.
        let first = [UInt8]([0x00, 0x40, 0x00, 0x40, 0x00]).withUnsafeBytes { decoder.decode($0) }
        #expect(first == [0.5, 0.5])
        #expect(decoder.pendingByteCount == 1)
        let second = [UInt8]([0xC0, 0x00, 0x40]).withUnsafeBytes { decoder.decode($0) }
        #expect(second == [-0.5, 0.5])
        #expect(decoder.pendingByteCount == 0)
    }
}
