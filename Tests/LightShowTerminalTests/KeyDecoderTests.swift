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

    /// A terminal's answers to the colour question that come after `watch` stopped waiting are no keys: none of
    /// their letters may pause, stop or quit the viewer.
    @Test func lateTerminalAnswersAreNotKeys() {
        let late = Array("\u{1B}P1$r0;48:2::1:2:3m\u{1B}\\\u{1B}[?64;1;2;6;9;15;16;17;18;21;22;28c".utf8)
        #expect(KeyDecoder.decode(late) == [.other, .other])
        #expect(KeyDecoder.decode(Array("\u{1B}P1$r0;48".utf8) + [0x71]) == [.other], "cut short: the rest of the read")
    }
}
