import CPeerCred
#if canImport(Glibc)
import Glibc
#endif

/// Who is on the other end of a Unix socket, as the kernel vouches for it (`SO_PEERCRED`), not as the peer says.
public enum SocketPeer {
    /// The process that connected `fd`; nil when the kernel can't tell.
    public static func processID(of fd: Int32) -> Int32? {
        let pid = lightshow_socket_peer_pid(fd)
        return pid > 0 ? pid : nil
    }

    /// True when the process that connected `fd` is a child of this one (the daemon's own web server).
    public static func isChildOfThisProcess(_ fd: Int32) -> Bool {
        guard let pid = processID(of: fd), let parent = parentProcessID(of: pid) else { return false }
        return parent == getpid()
    }

    /// The parent of `pid`, from field 4 of `/proc/PID/stat` (after the command name, which may hold spaces and
    /// parentheses: the last `)` ends it).
    static func parentProcessID(of pid: Int32) -> Int32? {
        guard let text = (try? SmallFile(path: "/proc/\(pid)/stat").read(limit: 4096)) ?? nil,
              let close = text.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = text[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let parent = Int32(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return parent
    }
}
