import LightShowCore
import Testing
@testable import LightShowControl

@Suite struct ShowFrameEventTests {
    @Test func encodesTheDocumentedShape() {
        let frame = ShowFrame(
            index: 12, time: 0.2, levels: BandLevels(bass: 0.5, mid: 0.25, treble: 0), state: .paused,
            title: "Song \"A\"", elapsed: 12.5
        )
        #expect(ShowFrameEvent.encode(frame).description
            == #"{"event":"frame","index":12,"t":0.2,"bass":0.5,"mid":0.25,"treble":0,"state":"paused","title":"Song \"A\"","elapsed":12.5}"#)
    }

    @Test func roundTripsThroughTheWireExactly() throws {
        let frames = [
            ShowFrame(index: 0, time: 0, levels: .zero, state: .stopped, title: "", elapsed: nil),
            ShowFrame(index: 98_765, time: 1234.5678, levels: BandLevels(bass: 0.123_456_79, mid: 1, treble: 1e-7),
                      state: .playing, title: "Ünïcode ♫ \"quoted\"", elapsed: 61.25),
        ]
        for frame in frames {
            let line = ShowFrameEvent.encode(frame).line
            let parsed = try JSONParser.parse(Array(line.dropLast()))
            #expect(ShowFrameEvent.decode(parsed) == frame)
        }
    }

    /// The stream is another process's: what it sends is checked and made safe before anyone draws it.
    @Test func hostileFramesAreCheckedAndMadeSafe() throws {
        let line = #"{"event":"frame","index":1e300,"t":1,"bass":7,"mid":-3,"treble":0.5,"state":"playing","title":"\u001b]0;pwned\u0007\u001b[2Jx","elapsed":-1e300}"#
        let frame = try #require(ShowFrameEvent.decode(try JSONParser.parse(Array(line.utf8))))
        #expect(frame.index == Int.max, "a huge index saturates instead of trapping")
        #expect(frame.levels == BandLevels(bass: 1, mid: 0, treble: 0.5))
        #expect(frame.title == "]0;pwned[2Jx", "no control characters reach a terminal")
        #expect(frame.elapsed == nil)
        let negative = #"{"event":"frame","index":-1,"t":1,"bass":0,"mid":0,"treble":0,"state":"playing"}"#
        #expect(ShowFrameEvent.decode(try JSONParser.parse(Array(negative.utf8))) == nil)
    }

    @Test func otherEventsAreNotFrames() {
        #expect(ShowFrameEvent.decode(["event": "state", "state": "paused"]) == nil)
        #expect(ShowFrameEvent.decode(["event": "frame", "index": 1]) == nil)
        #expect(ShowFrameEvent.decode(["event": "frame", "index": 1, "t": 0, "bass": 0, "mid": 0, "treble": 0, "state": "dancing"]) == nil)
    }
}
