import Glibc
import LightShowCore
import LightShowSystem
@testable import LightShowTerminal
import Testing

/// A pseudo-terminal pair: `terminal` is the side a program writes to, `master` what a terminal emulator reads.
private final class PseudoTerminal {
    let master: Int32
    let terminal: Int32

    init() throws {
        // posix_openpt and friends by hand: their header macros don't reach Swift.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        var locked: Int32 = 0
        var number: UInt32 = 0
        try #require(ioctl(master, 0x4004_5431 /* TIOCSPTLCK */, &locked) == 0)
        try #require(ioctl(master, 0x8004_5430 /* TIOCGPTN */, &number) == 0)
        terminal = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        try #require(terminal >= 0)
        var settings = termios()
        tcgetattr(terminal, &settings)
        cfmakeraw(&settings)
        tcsetattr(terminal, TCSANOW, &settings)
    }

    deinit {
        close(terminal)
        close(master)
    }

    /// The next `count` bytes the master side reads (fewer only if none come for a second).
    func read(_ count: Int) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while result.count < count {
            var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 1_000) == 1 else { break }  // os-idiom: the pty's far side, independent of the writer
            let got = chunk.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, min($0.count, count - result.count)) }  // os-idiom: as above
            guard got > 0 else { break }
            result += chunk[0..<got]
        }
        return result
    }
}

@Suite struct TerminalOutputTests {
    private func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 251) } }

    /// A terminal that stops reading never holds the writer longer than its patience: the write returns what
    /// fit, and those bytes arrive whole and in order; the rest can follow once the terminal reads again.
    @Test(.timeLimit(.minutes(1))) func aTerminalThatStopsReadingCostsAtMostThePatience() throws {
        let pty = try PseudoTerminal()
        let output = try TerminalOutput(reopening: pty.terminal)
        let bytes = pattern(1 << 20)
        let start = MonotonicClock.now()
        let written = bytes.withUnsafeBytes { output.write($0, patience: 50_000_000) }
        let waited = MonotonicClock.now() - start
        #expect(written > 0 && written < bytes.count)
        #expect(waited < 2_000_000_000)
        var received = pty.read(written)
        #expect(received == Array(bytes[0..<written]))
        while received.count < bytes.count {
            let more = bytes[received.count...].withUnsafeBytes { output.write($0, patience: 1_000_000) }
            #expect(more > 0)
            guard more > 0 else { break }
            received += pty.read(more)
        }
        #expect(received == bytes)
    }

    /// A frame that fits is written whole in one call.
    @Test func aFrameThatFitsIsWrittenWhole() throws {
        let pty = try PseudoTerminal()
        let output = try TerminalOutput(reopening: pty.terminal)
        let bytes = pattern(2_000)
        #expect(bytes.withUnsafeBytes { output.write($0, patience: 0) } == bytes.count)
        #expect(pty.read(bytes.count) == bytes)
    }
}
