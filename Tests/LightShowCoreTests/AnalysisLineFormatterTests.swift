@testable import LightShowCore
import Testing

@Suite struct AnalysisLineFormatterTests {
    let levels = BandLevels(bass: 0.8213, mid: 0.1, treble: 0.0249)

    @Test func jsonlMatchesTheDocumentedShape() {
        let line = AnalysisLineFormatter(format: .jsonl).line(time: 1.23333, levels: levels, state: .playing)
        #expect(line == #"{"t":1.2333,"bass":0.82,"mid":0.10,"treble":0.02,"envelope":{"bass":0.00,"mid":0.00,"treble":0.00},"accent":{"bass":0.00,"mid":0.00,"treble":0.00},"state":"playing"}"# + "\n")
    }

    @Test func jsonlCarriesEnvelopeAndAccentApart() {
        var frame = ShowFrame(index: 3, time: 0.05, levels: BandLevels(bass: 0.9, mid: 0.3, treble: 0.2), state: .playing, title: "")
        frame.envelope = BandLevels(bass: 0.4, mid: 0.3, treble: 0.2)
        frame.accent = BandLevels(bass: 0.9, mid: 0, treble: 0.05)
        #expect(AnalysisLineFormatter(format: .jsonl).line(frame) == #"{"t":0.0500,"bass":0.90,"mid":0.30,"treble":0.20,"envelope":{"bass":0.40,"mid":0.30,"treble":0.20},"accent":{"bass":0.90,"mid":0.00,"treble":0.05},"state":"playing"}"# + "\n")
    }

    @Test func onsetsGiveOneLinePerOnsetAndNothingForAFrameWithout() {
        let formatter = AnalysisLineFormatter(format: .onsets)
        #expect(formatter.header == nil)
        var frame = ShowFrame(index: 0, time: 1, levels: .zero, state: .playing, title: "")
        #expect(formatter.line(frame) == "")
        frame.onsets = [
            Onset(time: 0.98765, band: .bass, strength: 0.8449), Onset(time: 0.99, band: .treble, strength: 1.5),
        ]
        #expect(formatter.line(frame) == "0.9877 bass 0.84\n0.9900 treble 1.00\n")
    }

    @Test func csvHasAHeaderAndRows() {
        let formatter = AnalysisLineFormatter(format: .csv)
        #expect(formatter.header == "t,bass,mid,treble,state\n")
        #expect(formatter.line(time: 0.0167, levels: levels, state: .paused) == "0.0167,0.82,0.10,0.02,paused\n")
    }

    @Test func asciiIsCavasRawFormat() {
        let formatter = AnalysisLineFormatter(format: .ascii)
        #expect(formatter.header == nil)
        #expect(formatter.line(time: 3, levels: levels, state: .playing) == "821;100;25;\n")
        #expect(formatter.line(time: 3, levels: BandLevels(bass: 1, mid: 0, treble: 0.5), state: .stopped) == "1000;0;500;\n")
    }

    @Test func outOfRangeAndNonFiniteValuesAreClamped() {
        let odd = BandLevels(bass: 1.7, mid: -0.2, treble: .nan)
        #expect(AnalysisLineFormatter(format: .ascii).line(time: 0, levels: odd, state: .playing) == "1000;0;0;\n")
        let json = AnalysisLineFormatter(format: .jsonl).line(time: .infinity, levels: .zero, state: .stopped)
        #expect(json.hasPrefix(#"{"t":0.0000,"bass":0.00,"mid":0.00,"treble":0.00,"#))
    }

    @Test func fixedPointRoundsAndPads() {
        func fixed(_ value: Double, _ decimals: Int) -> String {
            var bytes: [UInt8] = []
            AnalysisLineFormatter.appendFixed(value, decimals: decimals, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(fixed(0.005, 2) == "0.01")
        #expect(fixed(0.999, 2) == "1.00")
        #expect(fixed(123.45678, 4) == "123.4568")
        #expect(fixed(-0.5, 1) == "-0.5")
        #expect(fixed(-0.00001, 2) == "0.00")
        #expect(fixed(7, 0) == "7")
    }
}
