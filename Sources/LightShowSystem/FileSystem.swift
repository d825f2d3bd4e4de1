#if canImport(Glibc)
public import Glibc
#endif

/// Names in the filesystem: removing, renaming and looking at what is there.
public enum FileSystem {
    /// Removes the name `path` (unlink).
    public static func remove(_ path: String) throws(SystemCallError) {
        guard unlink(path) == 0 else { throw .current("unlink \(path)") }
    }

    /// Removes `path` if it is there; true when something was removed. A missing name is no error.
    @discardableResult
    public static func removeIfPresent(_ path: String) throws(SystemCallError) -> Bool {
        if unlink(path) == 0 { return true }
        let failure = SystemCallError.current("unlink \(path)")
        guard failure.code == ENOENT else { throw failure }
        return false
    }

    /// Cleanup on a path that has already failed: removes `path` if it can, and says nothing (the first error is
    /// the one worth reporting).
    public static func discard(_ path: String) {
        _ = unlink(path)
    }

    /// Renames `source` to `destination` at once, replacing what is there (rename).
    public static func rename(_ source: String, to destination: String) throws(SystemCallError) {
        guard Glibc.rename(source, destination) == 0 else { throw .current("rename \(source) to \(destination)") }
    }

    /// Gives `path` to group `gid`, its owner unchanged (chown with no user).
    public static func setGroup(of path: String, to gid: gid_t) throws(SystemCallError) {
        guard chown(path, uid_t.max, gid) == 0 else { throw .current("chgrp \(path)") }
    }

    /// What is at `path` (stat, or lstat when not `followingSymlinks`); nil when nothing is.
    public static func status(_ path: String, followingSymlinks: Bool = true) throws(SystemCallError) -> stat? {
        var info = stat()
        let result = followingSymlinks ? stat(path, &info) : lstat(path, &info)
        if result == 0 { return info }
        let failure = SystemCallError.current("stat \(path)")
        guard failure.code == ENOENT else { throw failure }
        return nil
    }
}
