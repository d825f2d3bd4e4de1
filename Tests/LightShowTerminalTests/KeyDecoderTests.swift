import LightShowTerminal
import Testing

@Suite struct KeyDecoderTests {
    @Test func arrowsTabEscapeAndLetters() {
        let bytes: [UInt8] = [0x1B, 0x5B, 0x43, 0x1B, 0x4F, 0x44, 0x09, 0x71, 0x20, 0x1B]
        #expect(KeyDecoder.decode(bytes) == [.right, .left, .tab, .character("q"), .character(" "), .escape])
    }

    @Test func ctrlCIsAnInterrupt() {
        #expect(KeyDecoder.decode([0x03]) == [.interrupt])
    }
}
