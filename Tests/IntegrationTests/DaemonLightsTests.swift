import Foundation
import LightShowControl
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The daemon drives network lights as a sink of its show: a DDP strip at a receiver in the test follows the
/// playback state, `ctl status` counts its packets, and a reload with a bad entry keeps the running outputs.
@Suite struct DaemonLightsTests {
    static func config(port: Int, universe: String = "") -> Data {
        Data("""
            [input]
            source = "demo"
            [[lights]]
            protocol = "ddp"
            address = "127.0.0.1"
            port = \(port)
            layout = "strip"
            pixels = 150
            fps = 30
            \(universe)

            """.utf8)
    }

    static func status(_ daemon: DaemonProcess) -> JSONValue? {
        (try? ControlClient(path: daemon.socketPath, timeoutSeconds: 30).request("status"))?["result"]
    }

    @Test func theDaemonsShowDrivesAStripAndItsStopGoesDark() async throws {
        let receiver = try UDPReceiver()
        let directory = try TemporaryDirectory("ls-daemon-lights")
        let file = try directory.write("lightshow.toml", Self.config(port: receiver.port))
        let daemon = try DaemonProcess(["--config", file], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")

        // The demo plays: whole frames of 150 pixels arrive, some of them lit.
        let lit = await OffPool.until(timeout: 30) {
            ddpFrames(receiver.collect(timeout: 0.2)).contains { frame in
                frame.pixels.count == 150 && frame.pixels.values.contains { $0.contains { $0 > 40 } }
            }
        }
        #expect(lit, "lit strip frames: \(daemon.log)")
        guard case .array(let outputs)? = Self.status(daemon)?["lights"] else {
            Issue.record("no lights in ctl status: \(String(describing: Self.status(daemon)))")
            return
        }
        let lights = outputs.first
        #expect(lights?["destination"]?.stringValue?.contains("127.0.0.1") == true, "\(String(describing: lights))")
        #expect((lights?["packets"]?.numberValue ?? 0) > 0, "ctl status counts packets: \(String(describing: lights))")

        // A reload with a bad entry is refused with its key path; the strip keeps running.
        try Self.config(port: receiver.port, universe: "start = 0").write(to: URL(fileURLWithPath: file))
        let reload = try await daemon.ctl(["reload"])
        #expect(reload.status == 78 && reload.stderr.contains("lights[1].start"), "\(reload.stderr)")
        receiver.reset()
        #expect(await OffPool.until(timeout: 30) { !ddpFrames(receiver.collect(timeout: 0.2)).isEmpty }, "still sending")

        // Stopped: the strip fades to black, then nothing more is sent.
        let stop = try await daemon.ctl(["stop"])
        #expect(stop.status == 0, "\(stop.stderr)")
        let dark = await OffPool.until(timeout: 30) {
            ddpFrames(receiver.collect(timeout: 0.2)).last.map { $0.pixels.values.allSatisfy { $0 == [0, 0, 0] } } ?? false
        }
        #expect(dark, "the last frame after the stop is black")
        // Then it falls silent: a second and a half without a packet (unchanged data is otherwise resent each second).
        let silent = await OffPool.until(timeout: 10) {
            receiver.reset()
            return receiver.collect(timeout: 1.5).isEmpty
        }
        #expect(silent, "nothing is sent while stopped and dark")

        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 10) == 0, "\(daemon.log)")
    }
}
