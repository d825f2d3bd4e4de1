public import LightShowRender
import LightShowSystem

/// Finds the compiled terminfo entry for `TERM` where ncurses looks (`TERMINFO`, `~/.terminfo`, `TERMINFO_DIRS`,
/// then the system directories) and reads it. Nil when `TERM` is unset or unusual, or no entry is found or
/// readable: the viewer then assumes nothing the entry would have promised.
public enum TerminfoLookup {
    static let systemDirectories = ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"]
    /// Compiled entries are a few kilobytes; anything bigger is not one.
    static let sizeLimit = 64 * 1024

    public static func entry(environment: [String: String]) -> TerminfoEntry? {
        guard let name = environment["TERM"], isPlainName(name) else { return nil }
        var directories: [String] = []
        if let own = environment["TERMINFO"], !own.isEmpty { directories.append(own) }
        if let home = environment["HOME"], !home.isEmpty { directories.append(home + "/.terminfo") }
        for directory in (environment["TERMINFO_DIRS"] ?? "").split(separator: ":", omittingEmptySubsequences: false) {
            // An empty element stands for the system directories.
            directories += directory.isEmpty ? systemDirectories : [String(directory)]
        }
        directories += systemDirectories
        for directory in directories {
            let path = "\(directory)/\(name.first!)/\(name)"
            guard let bytes = try? SmallFile(path: path).read(limit: sizeLimit, followingSymlinks: true) else { continue }
            return TerminfoEntry(bytes: bytes)
        }
        return nil
    }

    /// A name that is only a file name: no path separators, no dot files, nothing a terminal name never holds.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 128 && !name.hasPrefix(".")
            && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }
    }
}
