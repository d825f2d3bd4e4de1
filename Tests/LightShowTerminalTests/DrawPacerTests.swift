import LightShowCore
import LightShowTerminal
import Testing

@Suite struct DrawPacerTests {
    private let frame: UInt64 = 16_666_667  // 60 fps
    private let start: UInt64 = 1_000_000_000

    private func offer(_ pacer: inout DrawPacer, at time: UInt64) -> DrawPacer.Decision { pacer.offer(at: time) }

    /// Frames on time (one per frame period, or later) are never held back.
    @Test func framesOnTimeAreDrawnAtOnce() {
        var pacer = DrawPacer(framesPerSecond: 60)
        for index in 0..<600 {
            #expect(offer(&pacer, at: start + UInt64(index) * frame) == .draw)
        }
        #expect(offer(&pacer, at: start + 700 * frame) == .draw)
    }

    /// A frame hard on the heels of the last draw (a chunk's tail) is held until the hold limit, unless the
    /// next frame, on time, is drawn first.
    @Test func aChunksTailIsHeldForTheNextFrame() {
        var pacer = DrawPacer(framesPerSecond: 60, holdLimit: 100_000_000)
        #expect(offer(&pacer, at: start) == .draw)
        #expect(offer(&pacer, at: start + 300_000) == .hold(until: start + 100_000_000))
        #expect(offer(&pacer, at: start + 50_000_000) == .draw)
    }

    /// Frames a little early (jitter, but more than the settle time after the last) are still drawn.
    @Test func jitterDoesNotHoldFrames() {
        var pacer = DrawPacer(framesPerSecond: 60)
        var time = start
        for step in 0..<300 {
            time += step % 2 == 0 ? frame / 2 : frame * 3 / 2
            #expect(offer(&pacer, at: time) == .draw)
        }
    }

    /// However fast frames come, no more than the rate (plus a burst of two) are drawn; the rest wait for a slot.
    @Test func aFloodIsCappedToTheRate() {
        var pacer = DrawPacer(framesPerSecond: 60)
        var drawn = 0
        // One frame every 5 ms (beyond the settle time) for one second.
        for step in 0..<200 {
            switch offer(&pacer, at: start + UInt64(step) * 5_000_000) {
            case .draw: drawn += 1
            case .wait(until: let due): #expect(due > start + UInt64(step) * 5_000_000)
            case .hold: Issue.record("a frame 5 ms after the last is not a chunk's tail")
            }
        }
        #expect(drawn >= 60 && drawn <= 63)
    }

    /// A held frame drawn when its time came counts as a draw: the next tail is measured from it.
    @Test func aFallbackDrawCounts() {
        var pacer = DrawPacer(framesPerSecond: 60)
        #expect(offer(&pacer, at: start) == .draw)
        pacer.drew(at: start + 100_000_000)
        #expect(offer(&pacer, at: start + 100_500_000) != .draw)
        #expect(offer(&pacer, at: start + 100_000_000 + frame) == .draw)
    }
}
