import LightShowCore
import Synchronization
import Testing
import TestSupport

@Suite struct ManualClockTests {
    @Test func movesOnlyWhenAdvancedAndNeverBack() {
        let clock = ManualClock()
        let start = clock.now
        clock.advance(by: .seconds(2))
        #expect(start.duration(to: clock.now) == .seconds(2))
        clock.advance(to: start)
        #expect(start.duration(to: clock.now) == .seconds(2))
    }

    @Test func sleepersWakeWhenTheirDeadlineComes() async throws {
        let clock = ManualClock()
        let deadline = clock.now.advanced(by: .seconds(5))
        let woke = Flag()
        let sleeper = Task {
            try await clock.sleep(until: deadline)
            woke.set()
        }
        // Asleep before the clock moves, or it would only show that a past deadline returns at once.
        #expect(await Wait.until(within: 10) { clock.sleeperCount == 1 })
        clock.advance(by: .seconds(1))
        // Waking happens inside `advance`: one still counted as asleep was not woken.
        #expect(clock.sleeperCount == 1, "woken 4 s early")
        #expect(!woke.isSet)
        clock.advance(to: deadline)
        #expect(clock.sleeperCount == 0)
        try await sleeper.value
        #expect(woke.isSet)
        // A deadline already past returns at once.
        try await clock.sleep(until: deadline)
    }

    @Test func cancellingASleeperThrows() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(until: clock.now.advanced(by: .seconds(1))) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
}

/// Set once, from any task.
private final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
