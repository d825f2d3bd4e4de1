#if canImport(Glibc)
import Glibc
#endif
import LightShowSystem
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
/// Nothing here waits for the terminal without bound: a terminal that stops reading must not keep a signal from
/// ending us.
public final class TerminalSession: @unchecked Sendable {
    public static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[0m\u{1B}[H\u{1B}[2J"
    /// CAN first: it ends an escape sequence a given-up frame left half sent, and the synchronized update that
    /// frame began, so the rest is understood.
    public static let leaveSequence = "\u{18}\u{1B}[?2026l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    /// How long a write waits for a terminal that takes nothing (its reader stopped) before giving up on the bytes.
    static let stallLimit: UInt64 = 1_000_000_000

    private let input: Int32 = 0
    /// Standard output opened again without blocking: every write to the terminal goes here.
    let output: TerminalOutput
    /// Read end of the signal self-pipe: one byte per signal, its number.
    public var signalDescriptor: Int32 { signals.rawValue }
    private let signals: OwnedDescriptor
    private var saved = termios()
    public private(set) var isEntered = false
    /// Signals read from the pipe while a write waited, not yet handed to the viewer.
    private var queued: [Int32] = []
    /// A signal that ends the viewer (or a stop request) has come: writes give up at once from now on.
    public private(set) var isEnding = false

    /// Fails unless standard input and output are a terminal.
    public init() throws(LightShowError) {
        guard TerminalControl.isTerminal(input), TerminalControl.isTerminal(1) else {
            throw LightShowError("watch needs a terminal on standard input and output; for data use `lightshow analyze`", exitStatus: .usage)
        }
        do throws(SystemCallError) {
            saved = try TerminalControl.settings(of: input)
        } catch {
            throw LightShowError("cannot read the terminal settings: \(error.message)", exitStatus: .ioError)
        }
        do throws(SystemCallError) {
            output = try TerminalOutput()
        } catch {
            throw LightShowError("cannot open the terminal for writing: \(error.message)", exitStatus: .ioError)
        }
        TerminalSignals.outputDescriptor = output.descriptor
        TerminalSignals.savedSettings.pointee = saved
        do throws(SystemCallError) {
            signals = try TerminalSignals.install()
        } catch {
            throw LightShowError("cannot set up signal handling: \(error.message)", exitStatus: .ioError)
        }
    }

    deinit {
        leave()
        TerminalSignals.uninstall()
    }

    /// Raw keys, alternate screen, hidden cursor. Idempotent.
    public func enter() {
        guard !isEntered else { return }
        reenter()
    }

    /// `enter` even if entered: after a stop we didn't arrange (SIGSTOP), the shell has had the terminal and put
    /// its own settings back.
    public func reenter() {
        // The frames place the cursor themselves and never send a newline: without output processing the kernel
        // passes each frame through instead of scanning it byte by byte.
        TerminalControl.apply(TerminalControl.rawKeys(from: saved), to: input)
        TerminalSignals.hasSavedSettings = 1
        write(Array(Self.enterSequence.utf8))
        isEntered = true
    }

    /// The terminal as it was: colours reset, cursor shown, main screen, cooked mode. Idempotent.
    /// Waits for the terminal at most `stallLimit`, whatever signal is pending: one is usually why we leave.
    public func leave() {
        guard isEntered else { return }
        _ = output.writeAll(Array(Self.leaveSequence.utf8), stall: Self.stallLimit)
        TerminalControl.apply(saved, to: input)
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
        guard let window = TerminalControl.windowSize(of: output.descriptor) else {
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

    /// Writes all of `bytes` (one `write` unless the terminal takes them in parts). Gives up, returning false,
    /// when the terminal takes nothing for `stallLimit` or a signal that ends the viewer comes (`isEnding`).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard !isEnding else { return false }
        return output.writeAll(bytes, stall: Self.stallLimit, interrupt: signalDescriptor) {
            readSignals()
            return isEnding
        }
    }

    /// Bytes typed so far (after `poll` said there are some); empty at end of input.
    public func readKeys() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 256)
        guard case .bytes(let count) = try? FileDescriptorIO.read(input, into: &buffer) else { return [] }
        return Array(buffer[0..<count])
    }

    /// Sends `request` and reads the terminal's answers until `complete` says they are all in, or `timeout`
    /// nanoseconds pass. Call once entered (raw keys: answers are neither echoed nor held for a line). Keys typed
    /// meanwhile are taken with the answers.
    public func ask(_ request: [UInt8], timeout: UInt64, until complete: ([UInt8]) -> Bool) -> [UInt8] {
        guard isEntered, write(request) else { return [] }
        let deadline = MonotonicClock.now() &+ timeout
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while !complete(answer) {
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            guard Poll.wait(&descriptor, count: 1, until: deadline) > 0,
                  case .bytes(let count) = try? FileDescriptorIO.read(input, into: &buffer) else { break }
            answer += buffer[0..<count]
        }
        return answer
    }

    /// Default dispositions for the signals the viewer handled: once it has finished nobody reads the pipe, and
    /// Ctrl-C must still end the process.
    public func stopForwardingSignals() {
        TerminalSignals.uninstall()
    }

    /// Wakes the viewer from any thread and makes it return `.inputEnded`: its pipeline has failed for good.
    public func stopViewing() {
        var byte = TerminalSignals.stopRequest
        FileDescriptorIO.writeFromSignalHandler(TerminalSignals.pipeWrite, &byte, 1)
    }

    /// Signal numbers delivered since the last call.
    public func pendingSignals() -> [Int32] {
        readSignals()
        defer { queued = [] }
        return queued
    }

    /// Signals a write has read from the pipe are waiting: the pipe alone no longer says so.
    public var hasPendingSignals: Bool { !queued.isEmpty }

    private func readSignals() {
        var buffer = [UInt8](repeating: 0, count: 64)
        guard case .bytes(let count) = try? FileDescriptorIO.read(signalDescriptor, into: &buffer) else { return }
        let numbers = buffer[0..<count].map { Int32($0) }
        queued += numbers
        if numbers.contains(where: TerminalSignals.ending.contains) { isEnding = true }
    }
}
