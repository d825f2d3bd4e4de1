import LightShowControl
import LightShowCore
import LightShowEngine
import LightShowLights
import Testing
import TestSupport
@testable import LightShowDaemon

/// `/metrics`' text: every family named and typed, hostile output names escaped, and Prometheus's own checker
/// content with it.
@Suite struct DaemonMetricsReportTests {
    static func report(lights: [LightOutputStatus], web: WebServerCounts? = nil) -> DaemonMetricsReport {
        DaemonMetricsReport(
            framesEmitted: 1234, capture: { var totals = CaptureTotals(); totals.overruns = 3; totals.reopens = 1; return totals }(),
            inputOpen: true, state: .paused, reloads: (ok: 2, failed: 1), lights: lights,
            analysisHop: HistogramSnapshot(upperBounds: [0.0001, 0.001], bucketCounts: [5, 1, 0], sum: 0.0009),
            audioToFrame: HistogramSnapshot(upperBounds: [0.005, 0.01], bucketCounts: [1, 2, 3], sum: 0.5),
            controlClients: 3, subscribers: ViewerCounts(viewers: 2, droppedFrames: 17), web: web
        )
    }

    static func light(_ name: String, packets: Int, errors: Int) -> LightOutputStatus {
        var status = LightOutputStatus(name: name, destination: "ddp 127.0.0.1:4048")
        status.packetsSent = packets
        status.sendErrors = errors
        return status
    }

    /// Names a config could not give (a newline) are still escaped: the writer doesn't lean on the config's checks.
    static let hostile = [light("say \"hi\" \\ there", packets: 10, errors: 1), light("two\nlines", packets: 4, errors: 0)]

    /// Each family's samples follow its `# HELP` and `# TYPE`, and every metric the README lists is there.
    @Test func everyFamilyHasHelpAndType() {
        let text = Self.report(lights: Self.hostile, web: WebServerCounts(clients: 4, viewers: 3, droppedFrames: 5)).text
        var declared: [String: (help: Bool, type: String?)] = [:]
        var current: String?
        for line in text.split(separator: "\n").map(String.init) {
            let words = line.split(separator: " ").map(String.init)
            if line.hasPrefix("# HELP ") {
                #expect(declared[words[2]] == nil, "\(words[2]) declared twice")
                declared[words[2]] = (true, nil)
                current = words[2]
            } else if line.hasPrefix("# TYPE ") {
                #expect(words[2] == current && declared[words[2]]?.type == nil, "TYPE of \(words[2]) apart from its HELP")
                declared[words[2]]?.type = words[3]
            } else if let current {
                let name = String(line.prefix { $0 != "{" && $0 != " " })
                let family = declared[current]?.type == "histogram"
                    ? ["_bucket", "_sum", "_count"].contains { name == current + $0 } : name == current
                #expect(family, "\(name) under \(current)")
            } else {
                Issue.record("sample before any family: \(line)")
            }
        }
        let expected: [String: String] = [
            "lightshow_frames_total": "counter", "lightshow_input_open": "gauge", "lightshow_capture_xruns_total": "counter",
            "lightshow_capture_recoveries_total": "counter", "lightshow_capture_losses_total": "counter",
            "lightshow_capture_reopens_total": "counter", "lightshow_reloads_total": "counter", "lightshow_state": "gauge",
            "lightshow_clients": "gauge", "lightshow_viewers": "gauge", "lightshow_viewer_dropped_frames_total": "counter",
            "lightshow_light_packets_sent_total": "counter", "lightshow_light_send_errors_total": "counter",
            "lightshow_analysis_hop_seconds": "histogram", "lightshow_audio_to_frame_latency_seconds": "histogram",
            "lightshow_web_refusals_total": "counter",
        ]
        #expect(declared.mapValues { $0.type ?? "" } == expected)
    }

    @Test func valuesAndLabelsAreThoseGiven() {
        let web = WebServerCounts(clients: 4, viewers: 3, droppedFrames: 5, refusals: ["not_found": 7])
        let lines = Set(Self.report(lights: Self.hostile, web: web).text.split(separator: "\n").map(String.init))
        for expected in [
            #"lightshow_web_refusals_total{reason="not_found"} 7"#, #"lightshow_web_refusals_total{reason="timeout"} 0"#,
            "lightshow_frames_total 1234", "lightshow_capture_xruns_total 3", "lightshow_capture_reopens_total 1",
            #"lightshow_reloads_total{result="ok"} 2"#, #"lightshow_reloads_total{result="failed"} 1"#,
            #"lightshow_state{state="playing"} 0"#, #"lightshow_state{state="paused"} 1"#, #"lightshow_state{state="stopped"} 0"#,
            #"lightshow_clients{kind="control"} 3"#, #"lightshow_clients{kind="web"} 4"#,
            #"lightshow_viewers{kind="subscriber"} 2"#, #"lightshow_viewers{kind="web"} 3"#,
            #"lightshow_viewer_dropped_frames_total{kind="subscriber"} 17"#, #"lightshow_viewer_dropped_frames_total{kind="web"} 5"#,
            #"lightshow_light_packets_sent_total{output="say \"hi\" \\ there",destination="ddp 127.0.0.1:4048"} 10"#,
            #"lightshow_light_send_errors_total{output="two\nlines",destination="ddp 127.0.0.1:4048"} 0"#,
            #"lightshow_analysis_hop_seconds_bucket{le="0.0001"} 5"#, #"lightshow_analysis_hop_seconds_bucket{le="0.001"} 6"#,
            #"lightshow_analysis_hop_seconds_bucket{le="+Inf"} 6"#, "lightshow_analysis_hop_seconds_count 6",
            "lightshow_analysis_hop_seconds_sum 0.0009",
            #"lightshow_audio_to_frame_latency_seconds_bucket{le="0.01"} 3"#, "lightshow_audio_to_frame_latency_seconds_count 6",
        ] {
            #expect(lines.contains(expected), "\(expected)")
        }
    }

    /// With the web off its kinds are absent, not zero: no web server, no web series.
    @Test func webSeriesOnlyWithTheWebServer() {
        let text = Self.report(lights: []).text
        #expect(!text.contains(#"kind="web""#))
        #expect(!text.contains("lightshow_light_"))
    }

    /// Prometheus's checker parses and lints the text, hostile names and all.
    @Test func promtoolAcceptsIt() async throws {
        for report in [Self.report(lights: Self.hostile, web: WebServerCounts(clients: 1, viewers: 1, droppedFrames: 0)), Self.report(lights: [])] {
            let problems = try await Promtool.problems(in: report.text)
            #expect(problems == nil, "\(problems ?? "")\n\(report.text)")
        }
    }
}
