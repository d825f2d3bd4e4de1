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
                      state: .playing, title: "Ünïcode ♫", elapsed: 61.25),
        ]
        for frame in frames {
            let line = ShowFrameEvent.encode(frame).line
            let parsed = try JSONParser.parse(Array(line.dropLast()))
            #expect(ShowFrameEvent.decode(parsed) == frame)
        }
    }

    @Test func otherEventsAreNotFrames() {
        #expect(ShowFrameEvent.decode(["event": "state", "state": "paused"]) == nil)
        #expect(ShowFrameEvent.decode(["event": "frame", "index": 1]) == nil)
        #expect(ShowFrameEvent.decode(["event": "frame", "index": 1, "t": 0, "bass": 0, "mid": 0, "treble": 0, "state": "dancing"]) == nil)
    }
}
