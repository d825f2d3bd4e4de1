import FuzzDriver
@testable import LightShowConfig

#if canImport(Glibc)
import Glibc
#endif

// The config loader on any text, as `lightshow` reads a file: the limits checked before TOMLKit, then the parser
// probed in a throw-away process (toml++ aborts on some text, which must only kill the probe; here a fork), then
// TOMLKit, every section reader and the messages they build (which quote the values).
ConfigParserGuard.install { text in
    let pid = fork()
    if pid == 0 {
        // The probe's death is expected: no crash report from libFuzzer or the sanitizer in it.
        for number in [SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE] { signal(number, SIG_DFL) }
        let null = open("/dev/null", O_WRONLY)
        dup2(null, 2)
        _ = ConfigurationLoader.parse(text)
        _exit(0)
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return status & 0x7F == 0 ? .survived : .crashed("signal \(status & 0x7F)")
}

FuzzDriver.main { bytes in
    let text = String(decoding: bytes, as: UTF8.self)
    if ConfigTextLimits().violation(in: text) == nil, case .crashed = ConfigParserGuard.check(text) { return }
    let report = ConfigurationLoader.parse(text)
    for diagnostic in report.diagnostics { _ = diagnostic.formatted(file: "fuzz.toml") }
}
