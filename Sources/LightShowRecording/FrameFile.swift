import LightShowSystem

/// Writing one frame's file: everything or an error, never a silent short write; a failed file is removed.
enum FrameFile {
    /// Writes `bytes` to an `AtomicFile` for `path` under `temporaryPath`, left there for the committer to place in
    /// index order. Not synced: the recording's end syncs the whole filesystem. Errors name `path`.
    static func write(_ bytes: [UInt8], to path: String, temporaryPath: String) throws(RecordingError) -> AtomicFile {
        do throws(SystemCallError) {
            let file = try AtomicFile(path: path, temporaryPath: temporaryPath)
            try file.write(bytes)
            try file.finishWriting(sync: false)
            return file
        } catch {
            throw .write(path, error)
        }
    }
}
