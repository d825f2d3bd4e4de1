#if canImport(Glibc)
import Glibc
#endif

/// Unix stream sockets at a path: connecting, listening, and one-off datagrams (sd_notify). Every path is checked
/// against `sun_path`'s size first, so one too long fails naming it, rather than being cut short.
public enum UnixSocket {
    /// The address for `path` (a leading `@`: the abstract namespace), or an error naming `operation` and the path
    /// when it is empty or too long.
    public static func address(_ path: String, for operation: String) throws(SystemCallError) -> UnixSocketAddress {
        guard let address = UnixSocketAddress(path) else {
            let problem = path.isEmpty ? "an empty path" : "\(path.utf8.count) bytes, longer than the \(UnixSocketAddress.longestPath) a socket path may have"
            throw SystemCallError("\(operation) \(path) (\(problem))", code: ENAMETOOLONG)
        }
        return address
    }

    /// A blocking, close-on-exec stream socket connected to `path`. With `timeoutSeconds`, its reads and writes
    /// time out after that long (`Socket.setTimeouts`), and so does the connect itself, which blocks while the
    /// listener's backlog is full.
    public static func connect(to path: String, timeoutSeconds: Double? = nil) throws(SystemCallError) -> OwnedDescriptor {
        let address = try address(path, for: "connect")
        let socket = try Socket.make(family: AF_UNIX, type: Int32(SOCK_STREAM.rawValue))
        if let timeoutSeconds { Socket.setTimeouts(socket.rawValue, seconds: timeoutSeconds) }
        let result = address.withSockaddr { Glibc.connect(socket.rawValue, $0, $1) }
        guard result == 0 else { throw .current("connect \(path)") }
        return socket
    }

    /// A non-blocking, close-on-exec stream socket listening at `path`, which must be free (see `removeStale`).
    /// With `mode`, the socket file has it from the moment it appears: bound under a temporary name, given the mode,
    /// then renamed into place, so no client ever sees it with the umask's (bound and then chmod-ed when the
    /// temporary name would be too long).
    public static func listen(at path: String, mode: UInt32? = nil, backlog: Int32 = 64) throws(SystemCallError) -> OwnedDescriptor {
        let address = try address(path, for: "listen")
        let socket = try Socket.make(family: AF_UNIX, type: Int32(SOCK_STREAM.rawValue), nonBlocking: true)
        let temporary = path + ".\(getpid()).new"
        if let mode, let staging = UnixSocketAddress(temporary), !path.hasPrefix("@") {
            FileSystem.discard(temporary)
            guard staging.withSockaddr({ bind(socket.rawValue, $0, $1) }) == 0 else { throw .current("bind \(temporary)") }
            guard chmod(temporary, mode_t(mode)) == 0 else {
                let failure = SystemCallError.current("chmod \(temporary)")
                FileSystem.discard(temporary)
                throw failure
            }
            do throws(SystemCallError) {
                try FileSystem.rename(temporary, to: path)
            } catch {
                FileSystem.discard(temporary)
                throw error
            }
        } else {
            guard address.withSockaddr({ bind(socket.rawValue, $0, $1) }) == 0 else { throw .current("bind \(path)") }
            if let mode, !path.hasPrefix("@"), chmod(path, mode_t(mode)) != 0 { throw .current("chmod \(path)") }
        }
        guard Glibc.listen(socket.rawValue, backlog) == 0 else { throw .current("listen \(path)") }
        return socket
    }

    /// What a connect to a socket file says about whoever made it.
    public enum Liveness: Sendable {
        /// Something accepts connections on it.
        case listening
        /// Nothing does (ECONNREFUSED), or the file went meanwhile: a leftover from a crash.
        case stale
    }

    /// Tries a connect to `path` to tell a live socket from a leftover; other failures throw.
    public static func liveness(of path: String) throws(SystemCallError) -> Liveness {
        do throws(SystemCallError) {
            _ = try connect(to: path)
            return .listening
        } catch where error.code == ECONNREFUSED || error.code == ENOENT {
            return .stale
        }
    }

    /// Sends `bytes` as one datagram to the datagram socket at `path`, never waiting: a receiver that stopped
    /// reading fails it with EAGAIN.
    public static func sendDatagram(_ bytes: [UInt8], to path: String) throws(SystemCallError) {
        let address = try address(path, for: "send to")
        let socket = try Socket.make(family: AF_UNIX, type: Int32(SOCK_DGRAM.rawValue))
        let sent = address.withSockaddr { pointer, length in
            bytes.withUnsafeBytes {
                sendto(socket.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), pointer, length)
            }
        }
        guard sent == bytes.count else { throw .current("send to \(path)") }
    }
}
