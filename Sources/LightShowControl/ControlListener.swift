#if canImport(Glibc)
import Glibc
#endif

import LightShowSystem
/// The listening Unix stream socket: mode 0660 from the moment it appears, and a leftover socket file
/// from a crash is replaced only after a connect to it fails.
struct ControlListener: Sendable {
    let fd: Int32
    let path: String
    /// Identity of the socket file we created, so shutdown never unlinks a successor's socket.
    private let device: UInt64
    private let inode: UInt64

    init(path: String, backlog: Int32 = 64) throws(SystemCallError) {
        guard UnixSocketAddress(path) != nil, !path.hasPrefix("@") else {
            throw SystemCallError("control socket path \(path)", code: ENAMETOOLONG)
        }
        try Self.removeStale(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError("socket") }
        do throws(SystemCallError) {
            try Self.bindWithMode(fd, path: path)
            guard listen(fd, backlog) == 0 else { throw SystemCallError("listen \(path)") }
        } catch {
            Glibc.close(fd)
            throw error
        }
        var info = stat()
        stat(path, &info)
        self.fd = fd
        self.path = path
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// Closes the socket and removes its file if it is still ours.
    func close() {
        Glibc.close(fd)
        removeFile()
    }

    /// Removes the socket file if it is still ours: nobody new can connect, while the socket itself stays open.
    func removeFile() {
        var info = stat()
        if stat(path, &info) == 0, UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode {
            unlink(path)
        }
    }

    /// Binds under a temporary name, sets 0660, then renames into place, so no client ever sees
    /// the socket with the umask's mode. Falls back to bind + chmod when the temporary name is too long.
    private static func bindWithMode(_ fd: Int32, path: String) throws(SystemCallError) {
        let temporary = path + ".\(getpid()).new"
        if let address = UnixSocketAddress(temporary) {
            unlink(temporary)
            guard address.withSockaddr({ bind(fd, $0, $1) }) == 0 else { throw SystemCallError("bind \(temporary)") }
            guard chmod(temporary, 0o660) == 0, rename(temporary, path) == 0 else {
                let error = SystemCallError("chmod/rename \(temporary)")
                unlink(temporary)
                throw error
            }
            return
        }
        guard let address = UnixSocketAddress(path) else { throw SystemCallError("bind \(path)", code: ENAMETOOLONG) }
        guard address.withSockaddr({ bind(fd, $0, $1) }) == 0 else { throw SystemCallError("bind \(path)") }
        guard chmod(path, 0o660) == 0 else { throw SystemCallError("chmod \(path)") }
    }

    /// An existing socket file is removed only if nothing accepts a connection on it; anything else there
    /// (a live daemon, a regular file) is an error and is left alone.
    private static func removeStale(_ path: String) throws(SystemCallError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw SystemCallError("control socket \(path) exists and is not a socket", code: EEXIST)
        }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw SystemCallError("socket") }
        defer { Glibc.close(probe) }
        let connected = UnixSocketAddress(path)?.withSockaddr { connect(probe, $0, $1) } ?? -1
        if connected == 0 {
            throw SystemCallError("control socket \(path) is in use by a running daemon", code: EADDRINUSE)
        }
        let code = errno
        guard code == ECONNREFUSED || code == ENOENT else { throw SystemCallError("connect \(path)", code: code) }
        if unlink(path) != 0 && errno != ENOENT { throw SystemCallError("unlink stale \(path)") }
    }
}
