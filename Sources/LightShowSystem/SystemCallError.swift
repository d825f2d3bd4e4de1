#if canImport(Glibc)
import Glibc
#endif

/// A failed system call, with the call and `strerror` text, e.g. `bind /run/x.sock: Address already in use`.
public struct SystemCallError: Error, CustomStringConvertible, Equatable {
    public var operation: String
    public var code: Int32

    /// Captures the current `errno` unless `code` is given.
    public init(_ operation: String, code: Int32? = nil) {
        self.operation = operation
        self.code = code ?? errno
    }

    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}

/// Sets O_NONBLOCK and FD_CLOEXEC on `fd` (for descriptors made without SOCK_NONBLOCK/SOCK_CLOEXEC).
public func makeNonBlocking(_ fd: Int32) {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
}
