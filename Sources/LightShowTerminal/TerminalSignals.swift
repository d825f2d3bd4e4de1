#if canImport(Glibc)
import Glibc
#endif
import LightShowSystem

/// Signals that reach the viewer turn into bytes on a self-pipe, which the viewer's loop polls together with the
/// keyboard: no work in the handlers but one `write`. Fatal signals restore the terminal from the handler itself
/// (with only async-signal-safe calls) and then die as they would have.
enum TerminalSignals {
    /// Write end of the self-pipe; -1 until installed. Read by the handlers.
    nonisolated(unsafe) static var pipeWrite: Int32 = -1
    /// The terminal opened without blocking (`TerminalSession.output`), for the handlers; -1 until set.
    nonisolated(unsafe) static var outputDescriptor: Int32 = -1
    /// The terminal settings to put back if the process dies; set while the viewer owns the terminal.
    nonisolated(unsafe) static var savedSettings = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    nonisolated(unsafe) static var hasSavedSettings: Int32 = 0
    nonisolated(unsafe) static var restoreBytes: UnsafeMutableBufferPointer<UInt8> = {
        let bytes = Array(TerminalSession.leaveSequence.utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        return buffer
    }()

    /// Not a signal: the byte `TerminalSession.stopViewing` writes.
    static let stopRequest: UInt8 = 0

    static let forwarded: [Int32] = [SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT]
    static let fatal: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
    /// What ends the viewer: these signals and a stop request.
    static let ending: [Int32] = [SIGINT, SIGTERM, SIGHUP, Int32(stopRequest)]

    /// Installs the handlers and returns the pipe's read end. The write end stays open for the process's life:
    /// a handler may run at any time.
    static func install() throws(SystemCallError) -> OwnedDescriptor {
        // Touch the lazily initialised globals now, never for the first time inside a handler.
        _ = restoreBytes.count
        _ = savedSettings
        let pipe = try OwnedPipe(nonBlocking: true)
        pipeWrite = pipe.write.release()
        for number in forwarded { signal(number, forward) }
        for number in fatal { signal(number, dieRestoring) }
        return pipe.read
    }

    /// Back to the default dispositions (after the viewer has finished).
    static func uninstall() {
        for number in forwarded + fatal { signal(number, SIG_DFL) }
    }

    /// Puts the default back for `number` and raises it: used to stop on Ctrl-Z and to die by SIGTERM/SIGHUP.
    static func raiseDefault(_ number: Int32) {
        signal(number, SIG_DFL)
        raise(number)
    }

    static func reinstall(_ number: Int32) {
        signal(number, forward)
    }
}

private func forward(_ number: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    FileDescriptorIO.writeFromSignalHandler(TerminalSignals.pipeWrite, &byte, 1)
}

/// One non-blocking try at the terminal and no draining: dying must not wait on a terminal that stopped reading.
private func dieRestoring(_ number: Int32) {
    if TerminalSignals.hasSavedSettings != 0 {
        FileDescriptorIO.writeFromSignalHandler(
            TerminalSignals.outputDescriptor, TerminalSignals.restoreBytes.baseAddress, TerminalSignals.restoreBytes.count
        )
        TerminalControl.applyFromSignalHandler(TerminalSignals.savedSettings, to: 0)
    }
    signal(number, SIG_DFL)
    raise(number)
}
