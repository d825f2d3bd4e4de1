import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `/metrics` as Prometheus sees it: a real Prometheus on loopback scrapes a real daemon (demo input, one DDP
/// light output) every second, finds the target up, and the frame counter moves between two scrapes.
@Suite struct PrometheusScrapeTests {
    @Test func prometheusScrapesTheDaemon() async throws {
        let receiver = try UDPReceiver()
        let directory = try TemporaryDirectory("ls-daemon-prometheus")
        let file = try directory.write("lightshow.toml", Data("""
            [input]
            source = "demo"
            [[lights]]
            name = "porch \\"left\\" \\\\ strip"
            protocol = "ddp"
            address = "127.0.0.1"
            port = \(receiver.port)
            layout = "strip"
            pixels = 10

            """.utf8))
        let webPort = try MPDServer.freePort()
        let daemon = try DaemonProcess(["--config", file, "--web", "127.0.0.1:\(webPort)"], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")

        // The daemon's own answer: the text format's content type, and text promtool accepts.
        let url = "http://127.0.0.1:\(webPort)/metrics"
        let served = await OffPool.until(timeout: 30) {
            (CurlRequest.get(url).map { ScrapedMetrics($0.body)["lightshow_frames_total"] ?? 0 } ?? 0) > 0
        }
        #expect(served, "no frames in /metrics: \(daemon.log)")
        let response = try #require(try await OffPool.run { CurlRequest.get(url) })
        #expect(response.status == 200)
        #expect(response.contentType == "text/plain; version=0.0.4; charset=utf-8")
        let problems = try await Promtool.problems(in: response.body)
        #expect(problems == nil, "\(problems ?? "")\n\(response.body)")

        let prometheus = try await OffPool.run { try PrometheusServer(target: "127.0.0.1:\(webPort)") }
        defer { prometheus.stop() }
        let up = await OffPool.until(timeout: 60) { prometheus.value(#"up{job="lightshow"}"#) == 1 }
        #expect(up, "up is \(String(describing: prometheus.query("up"))): \(prometheus.log)")

        // Two scrapes a second or more apart: the frame counter has moved.
        #expect(await OffPool.until(timeout: 30) { (prometheus.value("lightshow_frames_total") ?? 0) > 0 }, "no frames scraped")
        let first = prometheus.value("lightshow_frames_total") ?? 0
        let moved = await OffPool.until(timeout: 30) { (prometheus.value("lightshow_frames_total") ?? 0) > first }
        #expect(moved, "lightshow_frames_total stayed at \(first)")
        #expect(prometheus.value(#"lightshow_state{state="playing"}"#) == 1)
        // The hostile output name came through the scrape intact.
        let packets = prometheus.query("lightshow_light_packets_sent_total") ?? []
        #expect(packets.count == 1 && packets.first?.labels["output"]?.stringValue == #"porch "left" \ strip"#, "\(packets)")

        prometheus.stop()
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 30) == 0, "\(daemon.log)")
    }

    /// With a token set, `/metrics` refuses a scrape without it, and Prometheus with the token in its scrape config
    /// finds the target up.
    @Test func prometheusScrapesWithTheToken() async throws {
        let token = "0123456789abcdef0123456789abcdef"
        let webPort = try MPDServer.freePort()
        let directory = try TemporaryDirectory("ls-daemon-prometheus-token")
        let file = try directory.write("lightshow.toml", Data("""
            [input]
            source = "demo"
            [web]
            listen = "127.0.0.1:\(webPort)"
            token = "\(token)"

            """.utf8))
        let daemon = try DaemonProcess(["--config", file], directory: directory)
        #expect(await daemon.waitForSocket(), "\(daemon.log)")
        let url = "http://127.0.0.1:\(webPort)/metrics"
        #expect(await OffPool.until(timeout: 30) { CurlRequest.get(url)?.status == 401 }, "\(daemon.log)")
        let authorized = try await OffPool.run { CurlRequest.get(url, headers: ["Authorization: Bearer \(token)"]) }
        #expect(authorized?.status == 200 && authorized?.body.contains("lightshow_frames_total") == true)

        let prometheus = try await OffPool.run { try PrometheusServer(target: "127.0.0.1:\(webPort)", bearerToken: token) }
        defer { prometheus.stop() }
        let up = await OffPool.until(timeout: 60) { prometheus.value(#"up{job="lightshow"}"#) == 1 }
        #expect(up, "up is \(String(describing: prometheus.query("up"))): \(prometheus.log)")
        #expect(await OffPool.until(timeout: 30) { (prometheus.value("lightshow_frames_total") ?? 0) > 0 })

        prometheus.stop()
        daemon.send(signal: SIGTERM)
        #expect(await daemon.waitForExit(timeout: 30) == 0, "\(daemon.log)")
    }
}
