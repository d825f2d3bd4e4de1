import CSyncFS

#if canImport(Glibc)
import Glibc
#endif

/// Makes what was written into a directory durable at the end of a piece of work, and hears about write-back
/// errors, which close() never reports on a local filesystem: one `syncfs` flushes the directory's whole
/// filesystem and (since Linux 5.8) fails if any write-back failed, and an fsync of the directory makes the renames
/// into it durable. Open it before the work starts: syncfs reports only errors since the descriptor was opened.
public final class FileSystemSync: @unchecked Sendable {
    public let path: String
    private let directory: OwnedDescriptor

    public init(directory path: String) throws(SystemCallError) {
        self.path = path
        directory = try OwnedDescriptor.open(path, O_RDONLY | O_DIRECTORY)
    }

    /// Flushes everything written to the filesystem so far, and the directory's entries.
    public func sync() throws(SystemCallError) {
        guard syncfs(directory.rawValue) == 0 else { throw SystemCallError.current("syncfs \(path)") }
        do throws(SystemCallError) {
            try directory.sync()
        } catch {
            throw SystemCallError("fsync \(path)", code: error.code)
        }
    }
}
