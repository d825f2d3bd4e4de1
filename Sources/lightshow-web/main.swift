#if canImport(Glibc)
import Glibc
#endif
import LightShowWeb
import Logging

// The web server's process (README, "Web page and HTTP API"): `lightshow daemon` starts it when `[web] listen` is
// set. Logs go to standard error, which is the daemon's (the journal under systemd), at the daemon's level.
signal(SIGPIPE, SIG_IGN)
let level = getenv("LIGHTSHOW_LOG").flatMap { Logger.Level(rawValue: String(cString: $0)) } ?? .warning
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = level
    return handler
}
exit(await WebProcessMain.run())
