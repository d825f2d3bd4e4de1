import LightShowCore
import Testing

@Suite struct DrawPacerTests {
    private let frame: UInt64 = 16_666_667  // 60 fps

    private func take(_ pacer: inout DrawPacer, at time: UInt64) -> Bool { pacer.take(at: time) }

    /// A frame whose chunk came in two pieces is drawn at once, both times; a third straight after waits.
    @Test func aPairIsDrawnAtOnceAndALongerBurstWaits() {
        var pacer = DrawPacer(framesPerSecond: 60)
        let start: UInt64 = 1_000_000_000
        #expect(take(&pacer, at: start))
        #expect(take(&pacer, at: start + 500_000))
        #expect(!take(&pacer, at: start + 1_000_000))
        let next = pacer.nextAllowed(at: start + 1_000_000)
        #expect(next > start + 1_000_000)
        #expect(next <= start + frame)
        #expect(!take(&pacer, at: next - 1_000))
        #expect(take(&pacer, at: next))
    }

    /// Frames on time (one per frame period) are never held back.
    @Test func framesOnTimeAreNeverHeldBack() {
        var pacer = DrawPacer(framesPerSecond: 60)
        for index in 0..<600 {
            #expect(take(&pacer, at: UInt64(index) * frame))
        }
    }

    /// However fast frames come, no more than the rate (plus the burst) are drawn.
    @Test func aFloodIsCappedToTheRate() {
        var pacer = DrawPacer(framesPerSecond: 60)
        var drawn = 0
        // One announcement every 100 µs for one second.
        for step in 0..<10_000 where pacer.take(at: UInt64(step) * 100_000) {
            drawn += 1
        }
        #expect(drawn >= 60 && drawn <= 62)
    }

    /// `nextAllowed` is now when a draw is allowed, and a draw at that time is allowed.
    @Test func nextAllowedIsNowWhenFree() {
        var pacer = DrawPacer(framesPerSecond: 30)
        let next = pacer.nextAllowed(at: 5)
        #expect(next == 5)
        #expect(take(&pacer, at: 5))
    }
}
