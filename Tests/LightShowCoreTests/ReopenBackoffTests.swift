import LightShowCore
import Testing

@Suite struct ReopenBackoffTests {
    @Test func doublesFromHalfASecondUpToFive() {
        var backoff = ReopenBackoff()
        #expect((0..<7).map { _ in backoff.next() } == [0.5, 1, 2, 4, 5, 5, 5])
    }

    @Test func resetStartsOverAfterARecovery() {
        var backoff = ReopenBackoff()
        _ = backoff.next()
        _ = backoff.next()
        backoff.reset()
        #expect(backoff.next() == 0.5)
    }
}
