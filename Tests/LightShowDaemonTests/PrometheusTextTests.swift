@testable import LightShowDaemon
import LightShowEngine
import Testing

@Suite struct PrometheusTextTests {
    /// A counter and a gauge family: `# HELP`, `# TYPE`, then their samples, with labels in order.
    @Test func familiesHaveHelpTypeAndSamples() {
        var text = PrometheusText()
        text.family("lightshow_frames_total", .counter, help: "Frames.", value: 42)
        text.family("lightshow_state", .gauge, help: "State.", samples: [([("state", "playing")], 1), ([("state", "paused")], 0)])
        #expect(text.text == """
            # HELP lightshow_frames_total Frames.
            # TYPE lightshow_frames_total counter
            lightshow_frames_total 42
            # HELP lightshow_state State.
            # TYPE lightshow_state gauge
            lightshow_state{state="playing"} 1
            lightshow_state{state="paused"} 0

            """)
    }

    /// A family with no samples (no light outputs configured) writes nothing, not a header without samples.
    @Test func anEmptyFamilyWritesNothing() {
        var text = PrometheusText()
        text.family("lightshow_light_packets_sent_total", .counter, help: "Packets.", samples: [])
        #expect(text.text.isEmpty)
    }

    /// Label values escape backslash, double quote and line feed as the format says; other text stays as it is.
    @Test func labelValuesAreEscaped() {
        var text = PrometheusText()
        text.family("x_total", .counter, help: "X.", samples: [([("output", "a\"b\\c\nd é\r")], 1)])
        #expect(text.text.hasSuffix(#"x_total{output="a\"b\\c\nd é"# + "\r" + #""} 1"# + "\n"))
        #expect(PrometheusText.escapeLabelValue("plain name") == "plain name")
        #expect(PrometheusText.escapeLabelValue("\r\n") == "\r\\n")
    }

    /// Help text escapes backslash and line feed, not quotes.
    @Test func helpIsEscaped() {
        var text = PrometheusText()
        text.family("x", .gauge, help: "a \"b\" \\ c\nd", value: 0)
        #expect(text.text.hasPrefix(#"# HELP x a "b" \\ c\nd"# + "\n"))
    }

    /// Buckets are cumulative and end with `+Inf`, whose count is `_count`; `_sum` follows the buckets.
    @Test func histogramBucketsAreCumulative() {
        var text = PrometheusText()
        text.histogram("x_seconds", help: "X.", HistogramSnapshot(upperBounds: [0.001, 0.0025, 1], bucketCounts: [2, 0, 3, 4], sum: 12.5))
        #expect(text.text == """
            # HELP x_seconds X.
            # TYPE x_seconds histogram
            x_seconds_bucket{le="0.001"} 2
            x_seconds_bucket{le="0.0025"} 2
            x_seconds_bucket{le="1"} 5
            x_seconds_bucket{le="+Inf"} 9
            x_seconds_sum 12.5
            x_seconds_count 9

            """)
    }

    @Test func valuesAreFormattedAsTheFormatSpellsThem() {
        #expect(PrometheusText.format(3) == "3")
        #expect(PrometheusText.format(-2) == "-2")
        #expect(PrometheusText.format(0.25) == "0.25")
        #expect(PrometheusText.format(2.5e-05) == "2.5e-05")
        #expect(PrometheusText.format(1e20) == "1e+20")
        #expect(PrometheusText.format(.infinity) == "+Inf")
        #expect(PrometheusText.format(-.infinity) == "-Inf")
        #expect(PrometheusText.format(.nan) == "NaN")
    }

    @Test func namesAreChecked() {
        #expect(PrometheusText.isValidName("lightshow_frames_total"))
        #expect(PrometheusText.isValidName("a:b_C9"))
        #expect(!PrometheusText.isValidName(""))
        #expect(!PrometheusText.isValidName("9lives"))
        #expect(!PrometheusText.isValidName("with-dash"))
        #expect(!PrometheusText.isValidName("é"))
    }
}
