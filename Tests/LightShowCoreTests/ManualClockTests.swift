import LightShowCore
import Testing

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
        let sleeper = Task { try await clock.sleep(until: deadline) }
        clock.advance(by: .seconds(1))
        clock.advance(to: deadline)
        try await sleeper.value
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
