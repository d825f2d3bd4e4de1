#if canImport(Glibc)
import Glibc
#endif
public import LightShowCore

/// The screen's size in cells, and a cell's height over its width (from the pixel sizes when the terminal
/// reports them, else 2).
public struct TerminalSize: Equatable, Sendable {
    public var columns: Int
    public var rows: Int
    public var cellAspect: Double

    public init(columns: Int, rows: Int, cellAspect: Double = 2) {
        self.columns = columns
        self.rows = rows
        self.cellAspect = cellAspect
    }
}

/// Owns the controlling terminal while the viewer runs: raw keys (signals still on, so Ctrl-C and Ctrl-Z work),
/// the alternate screen and a hidden cursor, one `write` per frame, and everything put back on leaving,
/// on suspend, on a signal and on a crash. Owned by the viewer thread; only `stopViewing` is called from others.
public final class TerminalSession: @unchecked Sendable {
    public static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[0m\u{1B}[H\u{1B}[2J"
    public static let leaveSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    private let input: Int32 = 0
    private let output: Int32 = 1
    /// Read end of the signal self-pipe: one byte per signal, its number.
    public let signalDescriptor: Int32
    private var saved = termios()
    public private(set) var isEntered = false

    /// Fails unless standard input and output are a terminal.
    public init() throws(LightShowError) {
        guard isatty(input) == 1, isatty(output) == 1 else {
            throw LightShowError("watch needs a terminal on standard input and output; for data use `lightshow analyze`", exitStatus: .usage)
        }
        guard tcgetattr(input, &saved) == 0 else {
            throw LightShowError("cannot read the terminal settings: \(String(cString: strerror(errno)))", exitStatus: .ioError)
        }
        TerminalSignals.savedSettings.pointee = saved
        signalDescriptor = TerminalSignals.install()
        guard signalDescriptor >= 0 else {
            throw LightShowError("cannot set up signal handling: \(String(cString: strerror(errno)))", exitStatus: .ioError)
        }
    }

    deinit {
        leave()
        TerminalSignals.uninstall()
        close(signalDescriptor)
    }

    /// Raw keys, alternate screen, hidden cursor. Idempotent.
    public func enter() {
        guard !isEntered else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        _ = tcsetattr(input, TCSAFLUSH, &raw)
        TerminalSignals.hasSavedSettings = 1
        write(Array(Self.enterSequence.utf8))
        isEntered = true
    }

    /// The terminal as it was: colours reset, cursor shown, main screen, cooked mode. Idempotent.
    public func leave() {
        guard isEntered else { return }
        write(Array(Self.leaveSequence.utf8))
        _ = tcsetattr(input, TCSAFLUSH, &saved)
        TerminalSignals.hasSavedSettings = 0
        isEntered = false
    }

    /// Ctrl-Z: give the terminal back, stop, and take it again when continued.
    public func suspend() {
        leave()
        TerminalSignals.raiseDefault(SIGTSTP)
        // Execution continues here after SIGCONT.
        TerminalSignals.reinstall(SIGTSTP)
        enter()
    }

    public func size() -> TerminalSize {
        var window = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return TerminalSize(columns: 80, rows: 24)
        }
        var aspect = 2.0
        if window.ws_xpixel > 0 && window.ws_ypixel > 0 {
            let cellWidth = Double(window.ws_xpixel) / Double(window.ws_col)
            let cellHeight = Double(window.ws_ypixel) / Double(window.ws_row)
            if cellWidth > 0 && cellHeight > 0 { aspect = cellHeight / cellWidth }
        }
        return TerminalSize(columns: Int(window.ws_col), rows: Int(window.ws_row), cellAspect: aspect)
    }

    /// Writes all of `bytes` (one `write` unless the terminal takes them in parts).
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(output, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return
                }
                offset += written
            }
        }
    }

    /// Bytes typed so far (after `poll` said there are some); empty at end of input.
    public func readKeys() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
        return count > 0 ? Array(buffer[0..<count]) : []
    }

    /// Wakes the viewer from any thread and makes it return `.inputEnded`: its pipeline has failed for good.
    public func stopViewing() {
        var byte = TerminalSignals.stopRequest
        _ = Glibc.write(TerminalSignals.pipeWrite, &byte, 1)
    }

    /// Signal numbers delivered since the last call.
    public func pendingSignals() -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(signalDescriptor, $0.baseAddress, $0.count) }
        return count > 0 ? buffer[0..<count].map { Int32($0) } : []
    }
}
