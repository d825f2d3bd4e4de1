#if canImport(Glibc)
public import Glibc
#endif

/// Making and connecting sockets of any family (Unix, TCP), for the owners of connections (`UnixSocket`, MPD's).
public enum Socket {
    /// A new close-on-exec socket; non-blocking when asked.
    public static func make(family: Int32, type: Int32, protocol: Int32 = 0, nonBlocking: Bool = false) throws(SystemCallError) -> OwnedDescriptor {
        let flags = Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        let fd = socket(family, type | flags, `protocol`)
        guard fd >= 0 else { throw .current("socket") }
        return OwnedDescriptor(adopting: fd)
    }

    /// How a connect began.
    public enum ConnectStart: Sendable {
        case connected
        /// A non-blocking socket is connecting: wait for POLLOUT, then ask `pendingError`.
        case inProgress
    }

    /// Connects `fd` to `address`; `name` is what errors call the peer. EINTR leaves the connect going on, as
    /// EINPROGRESS does.
    public static func connect(
        _ fd: Int32, to address: UnsafePointer<sockaddr>, length: socklen_t, name: String
    ) throws(SystemCallError) -> ConnectStart {
        if Glibc.connect(fd, address, length) == 0 { return .connected }
        let failure = SystemCallError.current("connect \(name)")
        guard failure.code == EINPROGRESS || failure.code == EINTR else { throw failure }
        return .inProgress
    }

    /// The error a non-blocking connect ended with (SO_ERROR), nil when it succeeded.
    public static func pendingError(_ fd: Int32, name: String) -> SystemCallError? {
        var code: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &size) == 0 else { return .current("connect \(name)") }
        return code == 0 ? nil : SystemCallError("connect \(name)", code: code)
    }

    /// Says no more will be written (the peer reads end of file); reading goes on.
    public static func shutdownWriting(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Ends the connection both ways, waking a read blocked on it in another thread.
    public static func shutdownBoth(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    /// How long a blocking read or write on `fd` may wait before it fails with EAGAIN (SO_RCVTIMEO, SO_SNDTIMEO);
    /// 0 (or NaN) waits for ever. Clamped, so no caller's value can trap in the conversion.
    public static func setTimeouts(_ fd: Int32, seconds: Double) {
        let seconds = seconds.isNaN ? 0 : min(max(0, seconds), 1e9)
        let whole = seconds.rounded(.down)
        var timeout = timeval(tv_sec: Int(whole), tv_usec: Int((seconds - whole) * 1e6))
        let size = socklen_t(MemoryLayout<timeval>.size)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, size)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, size)
    }

    /// Two connected close-on-exec Unix stream sockets (socketpair): one end for us, one for a child.
    public static func pair() throws(SystemCallError) -> ConnectedPair {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw .current("socketpair")
        }
        return ConnectedPair(first: OwnedDescriptor(adopting: fds[0]), second: OwnedDescriptor(adopting: fds[1]))
    }

    /// The two ends `pair` makes, each closed with its owner.
    @frozen public struct ConnectedPair: ~Copyable, Sendable {
        public var first: OwnedDescriptor
        public var second: OwnedDescriptor
    }
}
