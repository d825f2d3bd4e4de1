#if canImport(Glibc)
import Glibc
#endif
import LightShowSystem
import LightShowWeb

// The web server's process (README, "Web page and HTTP API"): `lightshow daemon` starts it when `[web] listen` is
// set. Its log goes to standard error, which is the daemon's (the journal under systemd).
signal(SIGPIPE, SIG_IGN)
ProcessLogging.bootstrap()
exit(await WebProcessMain.run())
