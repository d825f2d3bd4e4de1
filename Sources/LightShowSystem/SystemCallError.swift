#if canImport(Glibc)
import Glibc
#endif

/// A failed system call, with the call and `strerror` text, e.g. `bind /run/x.sock: Address already in use`.
/// `current` is the one place `errno` is read after a failed call, and `message` the one place it becomes text.
public struct SystemCallError: Error, CustomStringConvertible, Equatable {
    public var operation: String
    public var code: Int32

    /// Captures the current `errno` unless `code` is given.
    public init(_ operation: String, code: Int32? = nil) {
        self.operation = operation
        self.code = code ?? errno
    }

    /// The call that just failed, named `operation` (the call and what it was on: `open /etc/x`), with `errno`
    /// as it is now: build it straight after the call, before anything else can change `errno`.
    public static func current(_ operation: String) -> SystemCallError {
        SystemCallError(operation, code: errno)
    }

    /// `strerror`'s text for the code: `No such file or directory`.
    public var message: String { Self.message(for: code) }

    /// `strerror`'s text for an errno value some other way reported (SO_ERROR, a C library's `-errno`).
    public static func message(for code: Int32) -> String {
        String(cString: strerror(code))
    }

    public var description: String { "\(operation): \(message)" }
}

/// Sets O_NONBLOCK and FD_CLOEXEC on `fd` (for descriptors made without SOCK_NONBLOCK/SOCK_CLOEXEC).
public func makeNonBlocking(_ fd: Int32) {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
}
