import Foundation
import LightShowSystem
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The sync at the end of a recording. That it reports a failed write-back is checked with a real failing disk by
/// RecordInterruptionTests (it needs root for the mounts).
@Suite struct FileSystemSyncTests {
    @Test func aDirectorySyncs() throws {
        let sync = try FileSystemSync(directory: NSTemporaryDirectory())
        try sync.sync()
    }

    @Test func onlyADirectoryOpens() throws {
        let missing = NSTemporaryDirectory() + "/no-such-directory-\(getpid())"
        #expect(throws: SystemCallError("open \(missing)", code: ENOENT)) { try FileSystemSync(directory: missing) }
        let file = NSTemporaryDirectory() + "/file-sync-\(getpid())"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        defer { unlink(file) }
        #expect(throws: SystemCallError("open \(file)", code: ENOTDIR)) { try FileSystemSync(directory: file) }
    }
}
