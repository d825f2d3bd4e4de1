#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open descriptors (RLIMIT_NOFILE): a server that holds many connections, or a test that
/// opens them, raises its soft limit toward the hard one.
public enum OpenFileLimit {
    /// The soft limit now.
    public static var current: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        return Int(clamping: limit.rlim_cur)
    }

    /// Raises the soft limit to `wanted` (at most the hard limit); returns the soft limit in force afterwards.
    @discardableResult
    public static func raise(to wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        let target = min(rlim_t(max(0, wanted)), limit.rlim_max)
        if target > limit.rlim_cur {
            limit.rlim_cur = target
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return current
    }
}
