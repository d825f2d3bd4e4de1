import LightShowCore
import Testing

@Suite struct DurationTextTests {
    @Test(arguments: [
        ("10s", 10.0), ("500ms", 0.5), ("2m", 120), ("1h30m", 5400), ("1.5s", 1.5), (" 3s ", 3), ("0s", 0), ("1m30s", 90),
    ])
    func parses(_ text: String, _ seconds: Double) {
        #expect(DurationText.seconds(parsing: text) == seconds)
    }

    @Test(arguments: ["", "s", "10", "10x", "-1s", "1.2.3s", "ten s", "10 s", "s10"])
    func rejects(_ text: String) {
        #expect(DurationText.seconds(parsing: text) == nil)
    }

    @Test func formatsShortest() {
        #expect(DurationText.format(seconds: 10) == "10s")
        #expect(DurationText.format(seconds: 0.5) == "500ms")
        #expect(DurationText.format(seconds: 120) == "2m")
        #expect(DurationText.format(seconds: 7200) == "2h")
        #expect(DurationText.format(seconds: 90) == "90s")
        #expect(DurationText.format(seconds: 0) == "0s")
    }

    /// Messages quote values from outside: formatting one must never trap, however large or odd.
    @Test func formatsHugeAndNonFiniteValuesWithoutTrapping() {
        #expect(DurationText.format(seconds: 1e24) == "1e+24s")
        #expect(DurationText.format(seconds: -1e300) == "-1e+300s")
        #expect(DurationText.format(seconds: .infinity) == "infs")
        #expect(DurationText.format(seconds: .nan) == "nans")
        #expect((1e300).compact == "1e+300" && Double.nan.compact == "nan")
        #expect(Scene.formatElapsed(.infinity) == "0:00")
    }
}
