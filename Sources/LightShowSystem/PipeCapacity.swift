#if canImport(Glibc)
import Glibc
#endif

/// The kernel buffer of a pipe or fifo (F_GETPIPE_SZ / F_SETPIPE_SZ, which Glibc's Swift overlay doesn't export).
public enum PipeCapacity {
    private static let setSize: Int32 = 1031
    private static let getSize: Int32 = 1032

    /// Asks for at least `bytes` of buffer (the kernel rounds up, and refuses beyond /proc/sys/fs/pipe-max-size
    /// for an unprivileged process); returns the capacity the pipe has afterwards, or nil when `fd` is no pipe.
    public static func grow(_ fd: Int32, toAtLeast bytes: Int) -> Int? {
        let current = fcntl(fd, getSize)
        guard current > 0 else { return nil }
        if Int(current) < bytes { _ = fcntl(fd, setSize, Int32(clamping: bytes)) }
        let after = fcntl(fd, getSize)
        return Int(after > 0 ? after : current)
    }
}
