import Foundation
import Testing
import TestSupport

/// libpulse is opened when PulseAudio is first used, not linked: on a system without it (here: a private mount
/// namespace where the library is an empty file) everything else works, and PulseAudio says what is missing.
@Suite struct MissingPulseLibraryTests {
    /// Runs `lightshow arguments…` where libpulse.so.0 can't be loaded; nil when this machine can't make such a
    /// namespace (unshare needs root) or has no libpulse to hide.
    private func runWithoutLibpulse(_ arguments: [String]) throws -> LightshowProcess.Result? {
        let library = URL(fileURLWithPath: "/lib/x86_64-linux-gnu/libpulse.so.0").resolvingSymlinksInPath().path
        guard getuid() == 0, FileManager.default.fileExists(atPath: library) else { return nil }
        let hide = "mount --bind /dev/null '\(library)' && exec \"$0\" \"$@\""
        return try LightshowProcess.run(arguments, launcher: ["/usr/bin/unshare", "--mount", "--propagation", "private", "sh", "-c", hide])
    }

    @Test func aFileIsAnalysedWithoutLibpulse() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("tone.wav", Signals.wav(Signals.sine(frequency: 440, seconds: 1), channels: 1, sampleRate: 48_000))
        let result = try #require(try runWithoutLibpulse(["analyze", "--input", path, "--format", "ascii", "--player", "none"]))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 60)
    }

    @Test func pulseInputNamesTheMissingLibrary() throws {
        let result = try #require(try runWithoutLibpulse(["analyze", "--input", "pulse", "--player", "none"]))
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("libpulse.so.0") && result.stderr.contains("libpulse0"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(!result.stderr.contains("server"), "the server isn't what is missing: \(result.stderr)")
    }

    @Test func devicesListsALSAAndSaysWhyNotPulse() throws {
        let result = try #require(try runWithoutLibpulse(["devices"]))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("libpulse0") && result.stdout.contains("alsa:"), "\(result.stdout)")
    }
}
