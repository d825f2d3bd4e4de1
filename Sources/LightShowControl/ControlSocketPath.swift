public import LightShowSystem
public import LightShowCore

#if canImport(Glibc)
public import Glibc
#endif

/// Where the control socket lives: `[control] socket` when set, else `$RUNTIME_DIRECTORY/control.sock`
/// (systemd's RuntimeDirectory=), else `$XDG_RUNTIME_DIR/lightshow/control.sock`, else, for root,
/// `/run/lightshow/control.sock`: where the system unit's RuntimeDirectory= puts it, so `sudo lightshow ctl` finds it.
public enum ControlSocketPath {
    public static let systemPath = "/run/lightshow/control.sock"

    public static func resolve(
        configured: String,
        environment: [String: String],
        isRoot: Bool? = nil
    ) throws(LightShowError) -> String {
        if !configured.isEmpty { return configured }
        // RuntimeDirectory= may list several directories, separated by colons; ours is the first.
        if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first, runtime.hasPrefix("/") {
            return "\(runtime)/control.sock"
        }
        if let xdg = environment["XDG_RUNTIME_DIR"], xdg.hasPrefix("/") {
            return "\(xdg)/lightshow/control.sock"
        }
        if isRoot ?? (geteuid() == 0) { return systemPath }
        throw LightShowError(
            "no place for the control socket: set [control] socket, $RUNTIME_DIRECTORY or $XDG_RUNTIME_DIR",
            exitStatus: .config
        )
    }

    /// The gid of group `name`, or nil when there is no such group.
    public static func groupID(named name: String) -> gid_t? {
        getgrnam(name).map { $0.pointee.gr_gid }
    }

    /// Gives the socket, and its directory when `directoryToo`, to group `gid`, so its members (and no one else) may
    /// connect: the socket is 0660 and a directory made for it 0750. A process may hand what it owns to any group
    /// it belongs to; what already has the group is left alone (no chown(2), which a seccomp filter may deny).
    /// `directoryToo` only for a directory that is the daemon's own: a configured socket's directory that was
    /// already there (`/run`, `/tmp`) keeps its group, however much the daemon owns it.
    public static func share(_ path: String, withGroup gid: gid_t, directoryToo: Bool) throws(SystemCallError) {
        if directoryToo, let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            let directory = String(path[..<slash])
            if let info = try? FileSystem.status(directory), info.st_uid == geteuid() && info.st_gid != gid {
                try FileSystem.setGroup(of: directory, to: gid)
            }
        }
        if let info = try? FileSystem.status(path), info.st_gid == gid { return }
        try FileSystem.setGroup(of: path, to: gid)
    }

    /// Creates the socket's directory (mode 0750) when it is missing; its parent must exist. True when it made it.
    @discardableResult
    public static func prepareDirectory(for path: String) throws(SystemCallError) -> Bool {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return false }
        return try Directory.make(String(path[..<slash]), mode: 0o750)
    }
}
