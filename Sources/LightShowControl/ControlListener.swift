#if canImport(Glibc)
import Glibc
#endif
import Synchronization

import LightShowSystem
/// The listening Unix stream socket: mode 0660 from the moment it appears, and a leftover socket file
/// from a crash is replaced only after a connect to it fails.
final class ControlListener: Sendable {
    /// The socket's number, for poll and accept; only while open.
    let fd: Int32
    let path: String
    /// Nil once closed.
    private let socket: Mutex<OwnedDescriptor?>
    /// Identity of the socket file we created, so shutdown never unlinks a successor's socket.
    private let device: UInt64
    private let inode: UInt64

    init(path: String, backlog: Int32 = 64) throws(SystemCallError) {
        guard !path.hasPrefix("@") else {
            throw SystemCallError("control socket path \(path) (the abstract namespace has no file to give a mode)", code: EINVAL)
        }
        _ = try UnixSocket.address(path, for: "control socket path")
        try Self.removeStale(path)
        let socket = try UnixSocket.listen(at: path, mode: 0o660, backlog: backlog)
        let info = try? FileSystem.status(path)
        fd = socket.rawValue
        self.socket = Mutex(socket)
        self.path = path
        device = info.map { UInt64($0.st_dev) } ?? 0
        inode = info.map { UInt64($0.st_ino) } ?? 0
    }

    /// Closes the socket and removes its file if it is still ours. Idempotent.
    func close() {
        guard socket.withLock({ $0.take() }) != nil else { return }
        removeFile()
    }

    /// Removes the socket file if it is still ours: nobody new can connect, while the socket itself stays open.
    func removeFile() {
        if let info = try? FileSystem.status(path), UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode {
            FileSystem.discard(path)
        }
    }

    /// An existing socket file is removed only if nothing accepts a connection on it; anything else there
    /// (a live daemon, a regular file) is an error and is left alone.
    private static func removeStale(_ path: String) throws(SystemCallError) {
        guard let info = try FileSystem.status(path, followingSymlinks: false) else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw SystemCallError("control socket \(path) exists and is not a socket", code: EEXIST)
        }
        if try UnixSocket.liveness(of: path) == .listening {
            throw SystemCallError("control socket \(path) is in use by a running daemon", code: EADDRINUSE)
        }
        try FileSystem.removeIfPresent(path)
    }
}
