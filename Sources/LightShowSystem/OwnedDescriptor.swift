#if canImport(Glibc)
public import Glibc
#endif

/// A descriptor that is ours to close, exactly once: in `deinit`, or earlier by `close()` (which reports what close
/// says) or `release()` (which hands it on unclosed). Non-copyable, so no two owners can both close it; one closed
/// twice could close another thread's new descriptor, which reuses the number.
public struct OwnedDescriptor: ~Copyable, Sendable {
    public let rawValue: Int32

    /// Takes ownership of `rawValue` (a descriptor made elsewhere: `accept`, a pipe, a C library).
    public init(adopting rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Opens `path` with `flags` (close-on-exec is added) and, when creating, `mode`.
    public static func open(_ path: String, _ flags: Int32, mode: UInt32 = 0o644) throws(SystemCallError) -> OwnedDescriptor {
        let fd = Glibc.open(path, flags | O_CLOEXEC, mode_t(mode))
        guard fd >= 0 else { throw .current("open \(path)") }
        return OwnedDescriptor(adopting: fd)
    }

    deinit {
        // Linux frees the number whatever close returns: never retried, and nobody left to tell.
        _ = Glibc.close(rawValue)
    }

    /// Closes it now. Some filesystems (NFS, quotas) report a deferred write error only here.
    public consuming func close() throws(SystemCallError) {
        let fd = rawValue
        discard self
        guard Glibc.close(fd) == 0 else { throw .current("close") }
    }

    /// Gives up ownership without closing: whoever takes the number closes it.
    public consuming func release() -> Int32 {
        let fd = rawValue
        discard self
        return fd
    }

    /// Makes what was written durable (fsync).
    public func sync() throws(SystemCallError) {
        guard fsync(rawValue) == 0 else { throw .current("fsync") }
    }

    /// What it is (fstat): its type in `st_mode`, its size, its identity.
    public func status() throws(SystemCallError) -> stat {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { throw .current("fstat") }
        return info
    }

    /// True when it is a regular file.
    public func isRegularFile() throws(SystemCallError) -> Bool {
        try status().st_mode & S_IFMT == S_IFREG
    }

    /// Cuts the file to `length` bytes and moves the offset there, so the next write goes at that point.
    public func truncate(to length: Int64) throws(SystemCallError) {
        guard ftruncate(rawValue, off_t(length)) == 0 else { throw .current("ftruncate") }
        guard lseek(rawValue, off_t(length), SEEK_SET) >= 0 else { throw .current("lseek") }
    }
}
