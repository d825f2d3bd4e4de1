#if canImport(Glibc)
import Glibc
#endif
import LightShowCore

/// Checks a path named by an input before any thread starts, so a bad path fails at once with a clear message.
enum InputPath {
    enum Kind { case regular, fifo, other }

    /// The kind of file at `path`. Missing or unreadable paths throw exit status 66 naming the input.
    static func check(_ path: String, spec: InputSpec, expected: String) throws(LightShowError) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let reason = errno == ENOENT ? "not found" : String(cString: strerror(errno))
            throw LightShowError("input \(spec): \(reason); expected \(expected)", exitStatus: .noInput)
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR {
            throw LightShowError("input \(spec) is a directory; expected \(expected)", exitStatus: .noInput)
        }
        guard access(path, R_OK) == 0 else {
            throw LightShowError("input \(spec) is not readable (\(String(cString: strerror(errno)))); expected \(expected)", exitStatus: .noInput)
        }
        switch type {
        case S_IFREG: return .regular
        case S_IFIFO: return .fifo
        default: return .other
        }
    }
}
