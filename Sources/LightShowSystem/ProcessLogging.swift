#if canImport(Glibc)
import Glibc
#endif
import Logging

/// How every lightshow process logs: to standard error (standard output carries data: analyze's levels, watch's
/// frames, the web server's answer to the daemon), at the level `LIGHTSHOW_LOG` names (trace, debug, info, notice,
/// warning, error; warning when unset). A daemon's children inherit the variable, so they log as it does.
public enum ProcessLogging {
    /// Once, first thing in `main`.
    public static func bootstrap() {
        let level = getenv("LIGHTSHOW_LOG").flatMap { Logger.Level(rawValue: String(cString: $0)) } ?? .warning
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
