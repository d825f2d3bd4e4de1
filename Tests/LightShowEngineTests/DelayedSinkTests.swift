import LightShowCore
import LightShowEngine
import LightShowSystem
import Synchronization
import Testing
import TestSupport

/// The viewers' sync offset: frames reach the viewer the delay after the engine hands them over, in order.
@Suite struct DelayedSinkTests {
    final class Arrivals: ShowSink {
        let seen = Mutex<[(index: Int, at: UInt64)]>([])
        let done = Atomic<Int>(0)
        func show(_ frame: ShowFrame) throws {
            let now = MonotonicClock.now()
            seen.withLock { $0.append((frame.index, now)) }
        }
        func framesDone() { done.add(1, ordering: .relaxed) }
    }

    func frame(_ index: Int) -> ShowFrame {
        ShowFrame(index: index, time: Double(index) / 60, levels: BandLevels(bass: 0.5), state: .playing, title: "")
    }

    @Test func framesArriveTheDelayLaterInOrder() throws {
        let viewer = Arrivals()
        let delayed = try DelayedSink(viewer, delayMilliseconds: 150)
        defer { delayed.close() }
        var handed: [UInt64] = []
        for index in 0..<5 {
            handed.append(MonotonicClock.now())
            try delayed.show(frame(index))
            delayed.framesDone()
            // The engine's frames come some time apart; each keeps its own due time.
            MonotonicClock.sleep(seconds: 0.01)
        }
        #expect(Wait.until(timeout: 30) { viewer.seen.withLock { $0.count } == 5 })
        let seen = viewer.seen.withLock { $0 }
        #expect(seen.map(\.index) == [0, 1, 2, 3, 4])
        // None before its delay. Not much after it either: a loaded machine may wake the sink's thread late, but a
        // delay counted twice would be 300 ms.
        for (arrival, handedAt) in zip(seen, handed) {
            let late = Double(arrival.at - handedAt) / 1e6
            #expect(late >= 150 && late < 2 * 150, "\(late) ms")
        }
        #expect(viewer.done.load(ordering: .relaxed) >= 1)
    }

    @Test func noDelayPassesFramesStraightThrough() throws {
        let viewer = Arrivals()
        let delayed = try DelayedSink(viewer, delayMilliseconds: 0)
        defer { delayed.close() }
        try delayed.show(frame(7))
        delayed.framesDone()
        #expect(viewer.seen.withLock { $0.map(\.index) } == [7])
        #expect(viewer.done.load(ordering: .relaxed) == 1)
    }

    @Test func aNewDelayAppliesToFramesStillWaiting() throws {
        let viewer = Arrivals()
        let delayed = try DelayedSink(viewer, delayMilliseconds: 5000)
        defer { delayed.close() }
        let handed = MonotonicClock.now()
        try delayed.show(frame(1))
        delayed.setDelay(milliseconds: 100)
        #expect(Wait.until(timeout: 30) { !viewer.seen.withLock { $0.isEmpty } })
        let arrival = try #require(viewer.seen.withLock { $0.first })
        let late = Double(arrival.at - handed) / 1e6
        #expect(late >= 100 && late < 1000, "\(late) ms")
    }
}

/// Lowering the delay to 0 while frames still wait: the engine's next frames must queue behind them, not overtake
/// them on the engine's thread while the sink's thread is still handing the older ones over.
@Suite struct DelayedSinkDelayDropTests {
    /// A viewer whose first frame holds its caller until released, and which notes whether two calls overlapped.
    final class HeldViewer: ShowSink {
        let finished = Mutex<[Int]>([])
        let inside = Atomic<Int>(0)
        let overlapped = Atomic<Bool>(false)
        let holding = Atomic<Bool>(false)
        let release = Atomic<Bool>(false)
        func show(_ frame: ShowFrame) throws {
            if inside.add(1, ordering: .sequentiallyConsistent).newValue > 1 { overlapped.store(true, ordering: .sequentiallyConsistent) }
            if frame.index == 1 {
                holding.store(true, ordering: .sequentiallyConsistent)
                Wait.until(timeout: 30) { release.load(ordering: .sequentiallyConsistent) }
            }
            finished.withLock { $0.append(frame.index) }
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        func framesDone() {}
    }

    @Test func framesStayInOrderWhenTheDelayDropsToZero() throws {
        let viewer = HeldViewer()
        let delayed = try DelayedSink(viewer, delayMilliseconds: 20)
        defer { delayed.close() }
        let first = ShowFrame(index: 1, time: 0, levels: BandLevels(bass: 0.5), state: .playing, title: "")
        try delayed.show(first)
        delayed.framesDone()
        // The sink's thread is handing frame 1 over, and holds there.
        #expect(Wait.until(timeout: 30) { viewer.holding.load(ordering: .sequentiallyConsistent) })
        delayed.setDelay(milliseconds: 0)
        let second = ShowFrame(index: 2, time: 1.0 / 60, levels: BandLevels(bass: 0.5), state: .playing, title: "")
        try delayed.show(second)
        delayed.framesDone()
        viewer.release.store(true, ordering: .sequentiallyConsistent)
        #expect(Wait.until(timeout: 30) { viewer.finished.withLock { $0.count } == 2 })
        #expect(viewer.finished.withLock { $0 } == [1, 2])
        let overlapped = viewer.overlapped.load(ordering: .sequentiallyConsistent)
        #expect(!overlapped, "the inner sink was called from two threads at once")
    }
}
