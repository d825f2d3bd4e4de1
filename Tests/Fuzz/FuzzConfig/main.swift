import FuzzDriver
@testable import LightShowConfig

#if canImport(Glibc)
import Glibc
#endif

// The config loader on any text, as `lightshow` reads a file: the limits checked before TOMLKit, then the parser
// probed in another process (toml++ aborts on some text, which must only kill the probe), then TOMLKit, every
// section reader and the messages they build (which quote the values).
let probe = ProbeProcess()
ConfigParserGuard.install { text in probe.check(text) }

FuzzDriver.main { bytes in
    let text = String(decoding: bytes, as: UTF8.self)
    if ConfigTextLimits().violation(in: text) == nil, case .crashed = ConfigParserGuard.check(text) { return }
    let report = ConfigurationLoader.parse(text)
    for diagnostic in report.diagnostics { _ = diagnostic.formatted(file: "fuzz.toml") }
}
