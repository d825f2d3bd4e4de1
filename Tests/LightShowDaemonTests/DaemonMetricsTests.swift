import Foundation
import LightShowCore
import Logging
import ServiceLifecycle
import Testing
import TestSupport
@testable import LightShowDaemon

/// The daemon's own metrics text, from a real daemon on the demo input with a light output: the counters move,
/// reloads are counted by result, and Prometheus's checker accepts the text.
@Suite struct DaemonMetricsTests {
    static func config(port: Int, name: String, valid: Bool = true) -> Data {
        Data("""
            [input]
            source = "demo"
            [[lights]]
            name = \(name)
            protocol = "ddp"
            address = "127.0.0.1"
            port = \(port)
            layout = "strip"
            pixels = 10
            \(valid ? "" : "start = 0")

            """.utf8)
    }

    @Test func aRunningDaemonsMetricsMoveAndPassPromtool() async throws {
        let receiver = try UDPReceiver()
        let directory = try TemporaryDirectory("ls-daemon-metrics")
        // A name with a quote and a backslash, as a config may give it (TOML literal string).
        let name = #"'porch "left" \ strip'"#
        let file = try directory.write("lightshow.toml", Self.config(port: receiver.port, name: name))
        let daemon = try DaemonService(
            configurationSource: DaemonConfigurationSource(file: file),
            environment: ["RUNTIME_DIRECTORY": directory.path, "STATE_DIRECTORY": directory.path], framesPerSecond: 30
        )
        let group = ServiceGroup(configuration: .init(services: [.init(service: daemon)], logger: Logger(label: "test")))
        let run = Task { try await group.run() }
        defer { run.cancel() }

        var first = ScrapedMetrics("")
        try await waitFor("frames, hops, latencies and packets", timeout: 30) {
            first = ScrapedMetrics(daemon.metricsText())
            return (first["lightshow_frames_total"] ?? 0) > 0 && (first["lightshow_analysis_hop_seconds_count"] ?? 0) > 0
                && (first["lightshow_audio_to_frame_latency_seconds_count"] ?? 0) > 0
                && (first[#"lightshow_light_packets_sent_total{output="porch \"left\" \\ strip",destination="ddp 127.0.0.1:\#(receiver.port)"}"#] ?? 0) > 0
        }
        #expect(first["lightshow_input_open"] == 1)
        #expect(first[#"lightshow_state{state="playing"}"#] == 1, "\(first.text)")
        #expect(first[#"lightshow_viewers{kind="subscriber"}"#] == 0)
        // The demo is real time: frames keep coming.
        try await waitFor("more frames", timeout: 30) {
            (ScrapedMetrics(daemon.metricsText())["lightshow_frames_total"] ?? 0) > first["lightshow_frames_total"] ?? 0
        }

        // Reloads are counted by result: a good one, then one the lights refuse.
        guard case .success = await daemon.reload(caller: "test") else { Issue.record("the first reload failed"); return }
        try Self.config(port: receiver.port, name: name, valid: false).write(to: URL(fileURLWithPath: file))
        guard case .failure = await daemon.reload(caller: "test") else { Issue.record("a bad reload succeeded"); return }
        let after = ScrapedMetrics(daemon.metricsText())
        #expect(after[#"lightshow_reloads_total{result="ok"}"#] == 1)
        #expect(after[#"lightshow_reloads_total{result="failed"}"#] == 1)
        // The analysis time is plausible: a hop takes more than nothing and less than a frame.
        let hops = after["lightshow_analysis_hop_seconds_count"] ?? 0
        let mean = (after["lightshow_analysis_hop_seconds_sum"] ?? 0) / max(1, hops)
        #expect(mean > 0 && mean < 1.0 / 30, "mean hop \(mean) s")
        #expect(after[#"lightshow_analysis_hop_seconds_bucket{le="+Inf"}"#] == hops)

        let problems = try await Promtool.problems(in: after.text)
        #expect(problems == nil, "\(problems ?? "")\n\(after.text)")
        run.cancel()
        _ = await run.result
    }
}
