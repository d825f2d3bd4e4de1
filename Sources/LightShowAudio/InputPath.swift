#if canImport(Glibc)
import Glibc
#endif
import LightShowCore
import LightShowSystem

/// Checks a path named by an input before any thread starts, so a bad path fails at once with a clear message.
enum InputPath {
    enum Kind { case regular, fifo, other }

    /// The kind of file at `path`. Missing or unreadable paths throw exit status 66 naming the input.
    static func check(_ path: String, spec: InputSpec, expected: String) throws(LightShowError) -> Kind {
        let status: stat?
        do throws(SystemCallError) {
            status = try FileSystem.status(path)
        } catch {
            throw LightShowError("input \(spec): \(error.message); expected \(expected)", exitStatus: .noInput)
        }
        guard let info = status else {
            throw LightShowError("input \(spec): not found; expected \(expected)", exitStatus: .noInput)
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFDIR {
            throw LightShowError("input \(spec) is a directory; expected \(expected)", exitStatus: .noInput)
        }
        guard access(path, R_OK) == 0 else {
            let reason = SystemCallError.current("access").message
            throw LightShowError("input \(spec) is not readable (\(reason)); expected \(expected)", exitStatus: .noInput)
        }
        switch type {
        case S_IFREG: return .regular
        case S_IFIFO: return .fifo
        default: return .other
        }
    }
}
