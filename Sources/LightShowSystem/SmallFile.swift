#if canImport(Glibc)
import Glibc
#endif

/// A small file read whole or created whole: persistent state (an identifier), or a bounded input. Reading takes
/// regular files only, opened without blocking, with a size cap (and by default not through a symlink);
/// creating or replacing it goes through `AtomicFile`, so nobody ever sees it half written.
public struct SmallFile: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The contents, or nil when the file doesn't exist. A symlink (unless `followingSymlinks`), a non-regular
    /// file (a fifo, a device) or one larger than `limit` bytes is an error.
    public func read(limit: Int, followingSymlinks: Bool = false) throws(SystemCallError) -> [UInt8]? {
        let file: OwnedDescriptor
        do throws(SystemCallError) {
            file = try OwnedDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | (followingSymlinks ? 0 : O_NOFOLLOW))
        } catch where error.code == ENOENT {
            return nil
        }
        guard try file.isRegularFile() else { throw SystemCallError("read \(path) (not a regular file)", code: EINVAL) }
        let bytes = try FileDescriptorIO.readToEnd(file.rawValue, limit: limit)
        guard bytes.count <= limit else { throw SystemCallError("read \(path)", code: EFBIG) }
        return bytes
    }

    /// Creates the file holding `contents` unless something is already there (then false): an `AtomicFile`
    /// linked into place, so a concurrent reader sees all of it or nothing, and two writers can't both win.
    /// Missing parent directories are made with mode 0700.
    public func create(_ contents: [UInt8], mode: UInt32 = 0o600) throws(SystemCallError) -> Bool {
        try AtomicFile.write(contents, to: path, mode: mode, placement: .creatingOnly, makingDirectoriesWithMode: 0o700)
    }

    /// Writes the file holding `contents`, replacing what is there: an `AtomicFile` renamed into place, so a
    /// reader sees the old file or the whole new one. Missing parent directories are made with mode 0700.
    public func replace(_ contents: [UInt8], mode: UInt32 = 0o600) throws(SystemCallError) {
        try AtomicFile.write(contents, to: path, mode: mode, placement: .replacing, makingDirectoriesWithMode: 0o700)
    }
}
