#if canImport(Glibc)
import Glibc
#endif

/// The one way a file is written whole: under a temporary name in its own directory, then put into place by one
/// rename (or link), so a reader sees the old file (or none) or all of the new one, never a part. The temporary
/// file is created with O_EXCL | O_NOFOLLOW after a stale one of ours is removed, so nothing someone else put
/// under the name (a symlink) is written through, and it is removed on every failure and whenever the writer goes
/// away unplaced. Writing may be streamed (`descriptor`, `write`) and placing may happen later on another thread:
/// one thread at a time uses it, handing it on whole.
public final class AtomicFile: @unchecked Sendable {
    /// How the finished file takes its name.
    public enum Placement: Sendable {
        /// rename: whatever is at the name is replaced.
        case replacing
        /// link: only where nothing is; two writers can't both win, and `place` says false to the loser.
        case creatingOnly
    }

    public let path: String
    public let temporaryPath: String
    /// Open until `finishWriting` (or `place`, or `discard`).
    private var file: OwnedDescriptor?
    /// Placed or discarded: the temporary name is gone.
    private var isSettled = false

    /// `dir/.name.tmp`: hidden, beside `path`.
    public static func hiddenTemporaryPath(for path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return ".\(path).tmp" }
        return "\(path[...slash]).\(path[path.index(after: slash)...]).tmp"
    }

    /// Creates the temporary file (`temporaryPath`, else `hiddenTemporaryPath(for: path)`) with `mode`, open for
    /// writing (and reading when `readable`: some writers seek back and read a header).
    public init(path: String, temporaryPath: String? = nil, mode: UInt32 = 0o644, readable: Bool = false) throws(SystemCallError) {
        self.path = path
        let temporary = temporaryPath ?? Self.hiddenTemporaryPath(for: path)
        self.temporaryPath = temporary
        FileSystem.discard(temporary)
        let access = readable ? O_RDWR : O_WRONLY
        do throws(SystemCallError) {
            file = try OwnedDescriptor.open(temporary, access | O_CREAT | O_EXCL | O_NOFOLLOW, mode: mode)
        } catch {
            isSettled = true
            throw SystemCallError("create \(temporary)", code: error.code)
        }
    }

    deinit {
        discard()
    }

    /// The temporary file's descriptor while it is being written (-1 after `finishWriting`).
    public var descriptor: Int32 { file?.rawValue ?? -1 }

    /// Appends all of `bytes`; a write that stops short is EIO.
    public func write(_ bytes: [UInt8]) throws(SystemCallError) {
        let outcome = try FileDescriptorIO.writeAll(descriptor, bytes)
        guard outcome == .complete else { throw SystemCallError("write \(temporaryPath)", code: EIO) }
    }

    /// Ends the writing: syncs the data to disk when `sync` (else the caller makes it durable later, as a
    /// recording's `FileSystemSync` does) and closes, which reports some deferred write errors (NFS, quotas).
    /// The file waits under its temporary name for `place`. On failure the temporary file is removed.
    public func finishWriting(sync: Bool = true) throws(SystemCallError) {
        guard let open = file.take() else { return }
        do throws(SystemCallError) {
            if sync { try open.sync() }
            try open.close()
        } catch {
            discard()
            throw SystemCallError("write \(temporaryPath)", code: error.code)
        }
    }

    /// Puts the file at `path` (finishing the writing first, synced, if that wasn't done). True when placed; false
    /// only for `.creatingOnly` when something is already at `path`, which is left as it is. The temporary name
    /// is gone afterwards, whatever happened.
    @discardableResult
    public func place(_ placement: Placement = .replacing) throws(SystemCallError) -> Bool {
        try finishWriting()
        guard !isSettled else { throw SystemCallError("place \(path)", code: EBADF) }
        defer { discard() }
        switch placement {
        case .replacing:
            guard rename(temporaryPath, path) == 0 else { throw .current("rename to \(path)") }
            isSettled = true
            return true
        case .creatingOnly:
            guard link(temporaryPath, path) == 0 else {
                let failure = SystemCallError.current("link \(path)")
                if failure.code == EEXIST { return false }
                throw failure
            }
            return true
        }
    }

    /// Gives up: closes the file and removes the temporary name. Nothing at `path` changes. Idempotent.
    public func discard() {
        _ = file.take()
        guard !isSettled else { return }
        isSettled = true
        FileSystem.discard(temporaryPath)
    }

    /// Writes `contents` to `path` whole: temporary file, sync, then placed as `placement` says (the parent
    /// directories are made first, with `directoryMode`, when given). Returns `place`'s answer.
    @discardableResult
    public static func write(
        _ contents: [UInt8], to path: String, mode: UInt32 = 0o644, placement: Placement = .replacing,
        makingDirectoriesWithMode directoryMode: UInt32? = nil
    ) throws(SystemCallError) -> Bool {
        if let directoryMode { try Directory.makeAll(parentOf: path, mode: directoryMode) }
        let file = try AtomicFile(path: path, temporaryPath: "\(path).\(getpid()).tmp", mode: mode)
        try file.write(contents)
        return try file.place(placement)
    }
}
