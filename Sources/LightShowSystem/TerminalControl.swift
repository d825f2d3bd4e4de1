#if canImport(Glibc)
public import Glibc
#endif

/// A terminal's settings (termios) and size (TIOCGWINSZ), for the viewer that owns it.
public enum TerminalControl {
    /// True when `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }

    /// The settings in force on `fd` (tcgetattr).
    public static func settings(of fd: Int32) throws(SystemCallError) -> termios {
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { throw .current("tcgetattr") }
        return settings
    }

    /// `settings` for raw keys: no line editing, echo or flow control, and no output processing (what is written
    /// goes through as it is); signal keys (Ctrl-C, Ctrl-Z) still work. A read returns as soon as one byte is in.
    public static func rawKeys(from settings: termios) -> termios {
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR)
        raw.c_oflag &= ~tcflag_t(OPOST)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return raw
    }

    /// Puts `settings` in force on `fd` now, dropping keys typed ahead. Not TCSAFLUSH: that first waits until the
    /// output has drained, for ever on a terminal that stopped reading.
    public static func apply(_ settings: termios, to fd: Int32) {
        var settings = settings
        _ = tcflush(fd, TCIFLUSH)
        _ = tcsetattr(fd, TCSANOW, &settings)
    }

    /// `apply` without the flush, from a signal handler: tcsetattr is async-signal-safe, and `settings` must be
    /// memory that was set up beforehand.
    public static func applyFromSignalHandler(_ settings: UnsafePointer<termios>, to fd: Int32) {
        _ = tcsetattr(fd, TCSANOW, settings)
    }

    /// The window size of the terminal at `fd`; nil when it is no terminal or reports no size.
    public static func windowSize(of fd: Int32) -> winsize? {
        var window = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return nil }
        return window
    }
}
