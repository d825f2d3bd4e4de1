import Foundation
import Testing
import TestSupport

/// The daemon on `--input pulse` before any sound server runs: it says so once, stays up and serves its socket,
/// and starts recording by itself when the server comes.
@Suite(.serialized, .tags(.pulseAudio)) struct DaemonPulseTests {
    @Test func waitsForTheServerWithoutFailingOrRepeatingItself() async throws {
        let server = try PulseAudioServer.desktop()
        defer { server.stop() }
        let daemon = try DaemonProcess(
            ["--input", "pulse", "--player", "none"],
            environment: server.clientEnvironment.merging(["LIGHTSHOW_LOG": "info"]) { $1 },
            directory: try TemporaryDirectory("lightshow-daemon"))
        #expect(await daemon.waitForSocket())
        try await waitFor("no server yet", timeout: 30) { daemon.log.contains("no sound server yet") }
        let status = try await daemon.ctl(["status"])
        #expect(status.status == 0, "\(status.stderr)")

        // The input opened (waiting is its own business), so the supervisor has nothing to retry.
        try await waitFor("input open", timeout: 30) { daemon.log.contains("capturing pulse") }
        try await server.start()
        try await waitFor("recording once the server is there", timeout: 30) {
            daemon.log.contains("is back after") && daemon.log.contains("recording speakers.monitor")
        }
        #expect(daemon.isRunning)
        #expect(daemon.log.components(separatedBy: "no sound server yet").count == 2, "\(daemon.log)")
        #expect(!daemon.log.contains("retrying"), "the supervisor never had to reopen the input: \(daemon.log)")
        let after = try await daemon.ctl(["status"])
        #expect(after.status == 0)
    }
}
