#if canImport(Glibc)
import Glibc
#endif

/// A small file read whole or created whole: persistent state (an identifier), or a bounded input. Reading takes
/// regular files only, opened without blocking, with a size cap (and by default not through a symlink);
/// creating happens only where nothing is, and nobody ever sees the file half written.
public struct SmallFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The contents, or nil when the file doesn't exist. A symlink (unless `followingSymlinks`), a non-regular
    /// file (a fifo, a device) or one larger than `limit` bytes is an error.
    public func read(limit: Int, followingSymlinks: Bool = false) throws(SystemCallError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (followingSymlinks ? 0 : O_NOFOLLOW))
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw SystemCallError("open \(path)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemCallError("stat \(path)") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw SystemCallError("read \(path) (not a regular file)", code: EINVAL) }
        let bytes = try FileDescriptorIO.readToEnd(fd, limit: limit)
        guard bytes.count <= limit else { throw SystemCallError("read \(path)", code: EFBIG) }
        return bytes
    }

    /// Creates the file holding `contents` unless something is already there (then false). It is written under a
    /// temporary name opened with O_EXCL | O_NOFOLLOW and linked into place, so a concurrent reader sees all
    /// of it or nothing, and two writers can't both win. Missing parent directories are made with mode 0700.
    public func create(_ contents: [UInt8], mode: UInt32 = 0o600) throws(SystemCallError) -> Bool {
        try Self.makeDirectories(parentOf: path)
        let temporary = "\(path).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SystemCallError("create \(temporary)") }
        defer { unlink(temporary) }
        do throws(SystemCallError) {
            let outcome = try FileDescriptorIO.writeAll(fd, contents)
            guard outcome == .complete, fsync(fd) == 0 else { throw SystemCallError("write \(temporary)", code: EIO) }
        } catch {
            close(fd)
            throw error
        }
        close(fd)
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { return false }
            throw SystemCallError("link \(path)")
        }
        return true
    }

    /// Writes the file holding `contents`, replacing what is there: under a temporary name opened with
    /// O_EXCL | O_NOFOLLOW, synced, then renamed into place, so a reader sees the old file or the whole new one
    /// and a symlink planted at the temporary name is never followed. The temporary file is removed on every
    /// failure. Missing parent directories are made with mode 0700.
    public func replace(_ contents: [UInt8], mode: UInt32 = 0o600) throws(SystemCallError) {
        try Self.makeDirectories(parentOf: path)
        let temporary = "\(path).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw SystemCallError("create \(temporary)") }
        do throws(SystemCallError) {
            let outcome = try FileDescriptorIO.writeAll(fd, contents)
            guard outcome == .complete, fsync(fd) == 0 else { throw SystemCallError("write \(temporary)", code: EIO) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let failure = SystemCallError("rename to \(path)")
            unlink(temporary)
            throw failure
        }
    }

    /// `mkdir -p` of the directory holding `path`.
    private static func makeDirectories(parentOf path: String) throws(SystemCallError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/").dropLast() {
            prefix += "/" + part
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST { throw SystemCallError("mkdir \(prefix)") }
        }
    }
}
