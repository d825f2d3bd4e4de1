import Testing
@testable import LightShowControl

/// One viewer's pace through the shared board: the scene first and after every change, then only the newest frame,
/// at most once per interval.
@Suite struct ShowEventPacerTests {
    @Test func sceneFirstThenTheNewestFrameAtItsPace() {
        let board = ShowEventBoard()
        var pacer = ShowEventPacer(framesPerSecond: 10, now: 0)
        #expect(pacer.take(board.latest, now: 0).isEmpty)
        #expect(pacer.wait(for: board.latest, now: 0) == nil)

        board.publishScene(["event": "scene", "n": 1])
        board.publishFrame(["event": "frame", "index": 1])
        board.publishFrame(["event": "frame", "index": 2])
        #expect(pacer.wait(for: board.latest, now: 0) == 0)
        #expect(pacer.take(board.latest, now: 0) == [Array(#"{"event":"scene","n":1}"#.utf8) + [10], Array(#"{"event":"frame","index":2}"#.utf8) + [10]])

        // Frames come faster than the viewer's rate: it waits, then gets only the newest.
        board.publishFrame(["event": "frame", "index": 3])
        board.publishFrame(["event": "frame", "index": 4])
        #expect(pacer.take(board.latest, now: 0.05).isEmpty)
        #expect(abs(pacer.wait(for: board.latest, now: 0.05)! - 0.05) < 1e-9)
        #expect(pacer.take(board.latest, now: 0.1) == [Array(#"{"event":"frame","index":4}"#.utf8) + [10]])
        #expect(pacer.wait(for: board.latest, now: 0.1) == nil)

        // A new scene goes at once, before the next frame.
        board.publishScene(["event": "scene", "n": 2])
        board.publishFrame(["event": "frame", "index": 5])
        #expect(pacer.take(board.latest, now: 0.12) == [Array(#"{"event":"scene","n":2}"#.utf8) + [10]])
        #expect(pacer.take(board.latest, now: 0.2).count == 1)
        // After a long pause the schedule restarts from now rather than bursting to catch up.
        board.publishFrame(["event": "frame", "index": 6])
        #expect(pacer.take(board.latest, now: 5).count == 1)
        board.publishFrame(["event": "frame", "index": 7])
        #expect(pacer.take(board.latest, now: 5.01).count == 1)
        board.publishFrame(["event": "frame", "index": 8])
        #expect(pacer.take(board.latest, now: 5.05).isEmpty)
        #expect(pacer.take(board.latest, now: 5.11).count == 1)
    }

    @Test func listenersHearEachChangeUntilTheyStop() {
        let board = ShowEventBoard()
        let heard = Heard()
        let id = board.listen { heard.add($0) }
        board.publishFrame(["event": "frame"])
        board.publishScene(["event": "scene"])
        board.stopListening(id)
        board.publishFrame(["event": "frame"])
        #expect(heard.changes == [.frame, .scene])
        #expect(board.listenerCount == 0)
    }

    final class Heard: @unchecked Sendable {
        private var list: [ShowEventBoard.Change] = []
        func add(_ change: ShowEventBoard.Change) { list.append(change) }
        var changes: [ShowEventBoard.Change] { list }
    }

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
