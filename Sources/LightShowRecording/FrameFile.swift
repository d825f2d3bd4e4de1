#if canImport(Glibc)
import Glibc
#endif
import LightShowSystem

/// Writing one whole file: everything or an error, never a silent short write; a failed file is removed.
enum FrameFile {
    /// Opens a new temporary file for writing: a stale one of ours (from a crash) is removed first, and the file is
    /// then created with `O_EXCL | O_NOFOLLOW`, so a link or file someone else put under the name is never written
    /// through (the open fails instead).
    static func createExclusively(_ path: String) -> Int32 {
        unlink(path)
        return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    }

    /// Writes all of `bytes` to a blocking file descriptor; nil, or the errno that stopped it.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        do {
            return switch try FileDescriptorIO.writeAll(fd, bytes) {
            case .complete: nil
            case .closed, .timedOut, .interrupted: EIO
            }
        } catch {
            return error.code
        }
    }

    /// Writes `bytes` to `path`; errors name `reportedPath` (the frame's final name rather than its temporary one).
    static func write(_ bytes: [UInt8], to path: String, reportedAs reportedPath: String) throws(RecordingError) {
        let fd = createExclusively(path)
        guard fd >= 0 else { throw .write(reportedPath, errno: errno) }
        var failure = writeAll(fd, bytes)
        // close reports some deferred write errors (NFS, quotas), not a local filesystem's failed write-back: the
        // recording's end syncs the filesystem for those.
        if close(fd) != 0 && failure == nil { failure = errno }
        if let failure {
            unlink(path)
            throw .write(reportedPath, errno: failure)
        }
    }
}
