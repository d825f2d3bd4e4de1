import LightShowRender
import LightShowTerminal
import Testing

/// Reading the terminal's answers to the direct-colour question, as real terminals give them.
@Suite struct TerminalColorQueryTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// xterm 379 as `TERM=xterm` (recorded under Xvfb): the RGB background kept, then DA1.
    static let xterm = bytes("\u{1B}P1$r0;48:2::1:2:3m\u{1B}\\\u{1B}[?64;1;2;6;9;15;16;17;18;21;22;28c")
    /// tmux 3.3a: no DECRQSS, DA1 only.
    static let tmux = bytes("\u{1B}[?1;2c")

    @Test func xtermKeepsTheRGBColour() {
        #expect(TerminalColorQuery.read(Self.xterm) == .truecolor)
        #expect(TerminalColorQuery.depth(detected: .ansi16) { _ in Self.xterm } == .truecolor)
        #expect(TerminalColorQuery.depth(detected: .palette256) { _ in Self.xterm } == .truecolor)
    }

    @Test func aTerminalWithoutDECRQSSKeepsTodaysChoice() {
        #expect(TerminalColorQuery.read(Self.tmux) == .other)
        #expect(TerminalColorQuery.depth(detected: .ansi16) { _ in Self.tmux } == .ansi16)
        #expect(TerminalColorQuery.depth(detected: .palette256) { _ in Self.tmux } == .palette256)
    }

    @Test func aTerminalThatMapsToItsPaletteIsNotDirectColour() {
        let mapped = Self.bytes("\u{1B}P1$r0;48;5;16m\u{1B}\\\u{1B}[?62;22c")
        #expect(TerminalColorQuery.read(mapped) == .other)
        let refused = Self.bytes("\u{1B}P0$r\u{1B}\\\u{1B}[?62;22c")
        #expect(TerminalColorQuery.read(refused) == .other)
    }

    @Test func theSemicolonFormCounts() {
        #expect(TerminalColorQuery.read(Self.bytes("\u{1B}P1$r0;48;2;1;2;3m\u{1B}\\")) == .truecolor)
        #expect(TerminalColorQuery.read(Self.bytes("\u{1B}P1$r48:2:1:2:3m\u{1B}\\")) == .truecolor)
        #expect(TerminalColorQuery.read(Self.bytes("\u{1B}P1$r48:2::9:2:3m\u{1B}\\")) == .other)
    }

    @Test func partAnswersWaitAndSilenceOrGarbageKeepsTodaysChoice() {
        #expect(TerminalColorQuery.read([]) == .incomplete)
        #expect(TerminalColorQuery.read(Array(Self.xterm.prefix(10))) == .incomplete)
        #expect(TerminalColorQuery.depth(detected: .ansi16) { _ in [] } == .ansi16)
        #expect(TerminalColorQuery.read([UInt8](repeating: 0x41, count: 4096)) == .other)
    }

    @Test func onlyAPaletteFromTheEnvironmentIsQuestioned() {
        var asked = 0
        for depth in [TerminalColorDepth.truecolor, .none] {
            #expect(TerminalColorQuery.depth(detected: depth) { _ in asked += 1; return Self.xterm } == depth)
        }
        #expect(asked == 0)
    }
}
