#if canImport(Glibc)
import Glibc
#endif

/// Making directories and listing one.
public enum Directory {
    /// `mkdir -p`: makes `path` and every missing directory above it with `mode` (as the umask allows). What is
    /// already a directory is left as it is; a component that exists but is no directory fails, naming it
    /// (`mkdir /a/file: Not a directory`).
    public static func makeAll(_ path: String, mode: UInt32 = 0o755) throws(SystemCallError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            try make(prefix, mode: mode)
        }
    }

    /// Makes the directory that holds `path` and the ones above it (`makeAll` of its parent).
    public static func makeAll(parentOf path: String, mode: UInt32 = 0o755) throws(SystemCallError) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        try makeAll(String(path[..<slash]), mode: mode)
    }

    /// Makes one directory; true when it made it, false when a directory was already there. Its parent must exist.
    @discardableResult
    public static func make(_ path: String, mode: UInt32 = 0o755) throws(SystemCallError) -> Bool {
        if mkdir(path, mode_t(mode)) == 0 { return true }
        let failure = SystemCallError.current("mkdir \(path)")
        guard failure.code == EEXIST else { throw failure }
        var info = stat()
        guard stat(path, &info) == 0 else { throw .current("mkdir \(path)") }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw SystemCallError("mkdir \(path)", code: ENOTDIR) }
        return false
    }

    /// The names in `path` other than `.` and `..`, in no particular order.
    public static func entries(of path: String) throws(SystemCallError) -> [String] {
        guard let directory = opendir(path) else { throw .current("opendir \(path)") }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
