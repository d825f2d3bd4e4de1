@testable import LightShowControl
import Testing

/// Dropped frames as a viewer's pacer counts them: turns of its rate it missed while busy, not frames its rate
/// leaves out.
@Suite struct ShowEventPacerTests {
    /// The board's newest frame after `number` frames.
    static func latest(_ number: UInt64) -> ShowEventBoard.Latest {
        ShowEventBoard.Latest(scene: nil, frame: .init(sequence: number, line: Array("\(number)\n".utf8), frameNumber: number))
    }

    /// A viewer at 30 fps of a 60 fps show gets every other frame and drops none.
    @Test func framesLeftOutForTheRateAreNotDropped() {
        var pacer = ShowEventPacer(framesPerSecond: 30, now: 0)
        var given = 0
        for number in UInt64(1)...120 {
            given += pacer.take(Self.latest(number), now: Double(number) / 60).count
        }
        #expect(given == 60)
        #expect(pacer.takeDropped() == 0)
    }

    /// A viewer at 60 fps that takes nothing for half a second (its socket full) missed 29 of its turns: the frame
    /// it gets then is the 30th, and the 29 before it were dropped; counted once.
    @Test func turnsMissedWhileBusyAreDropped() {
        var pacer = ShowEventPacer(framesPerSecond: 60, now: 0)
        #expect(pacer.take(Self.latest(1), now: 0).count == 1)
        #expect(pacer.take(Self.latest(31), now: 0.5).count == 1)
        #expect(pacer.takeDropped() == 29)
        #expect(pacer.takeDropped() == 0)
        // Back on schedule: nothing more is dropped.
        #expect(pacer.take(Self.latest(32), now: 0.5 + 1.0 / 60).count == 1)
        #expect(pacer.takeDropped() == 0)
    }

    /// A show that pauses (no frames for seconds) drops nothing: no frame was there to miss.
    @Test func aPauseInTheShowDropsNothing() {
        var pacer = ShowEventPacer(framesPerSecond: 30, now: 0)
        _ = pacer.take(Self.latest(1), now: 0)
        #expect(pacer.take(Self.latest(2), now: 10).count == 1)
        #expect(pacer.takeDropped() == 0)
    }
}
