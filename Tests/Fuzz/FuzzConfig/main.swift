import FuzzDriver
import LightShowConfig

// The config loader on any text: the limits checked before TOMLKit, TOMLKit itself, every section reader and the
// messages they build (which quote the values).
FuzzDriver.main { bytes in
    let report = ConfigurationLoader.parse(String(decoding: bytes, as: UTF8.self))
    for diagnostic in report.diagnostics { _ = diagnostic.formatted(file: "fuzz.toml") }
}
