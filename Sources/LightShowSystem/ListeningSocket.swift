#if canImport(Glibc)
import Glibc
#endif

/// Taking connections from a listening socket, with EINTR and an aborted connection handled here.
public enum ListeningSocket {
    /// The next waiting connection, non-blocking and close-on-exec; nil when none waits. Running out of
    /// descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM) and other failures throw.
    public static func accept(_ listener: Int32) throws(SystemCallError) -> OwnedDescriptor? {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            if fd >= 0 {
                // accept4 is not visible from Swift's Glibc module; the flags are set right after.
                makeNonBlocking(fd)
                return OwnedDescriptor(adopting: fd)
            }
            let code = errno
            switch code {
            case EINTR, ECONNABORTED: continue
            case EAGAIN: return nil
            default: throw SystemCallError("accept", code: code)
            }
        }
    }
}
