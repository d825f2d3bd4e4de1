import Testing
@testable import LightShowLights

/// The pacer against made-up clocks: rate cap, no drift, keep-alive, and the end of a show.
@Suite struct OutputPacerTests {
    let ms: UInt64 = 1_000_000
    let lit: [UInt8] = [255, 0, 0]
    let dim: [UInt8] = [100, 0, 0]
    let black: [UInt8] = [0, 0, 0]

    @Test func firstDataGoesOutAtOnceThenNoFasterThanTheRate() {
        var pacer = OutputPacer(framesPerSecond: 40) // 25 ms, sends up to 6.25 ms early
        let start: UInt64 = 1_000 * ms
        #expect(pacer.step(now: start, payload: lit, ending: false) == .send)
        #expect(pacer.step(now: start, payload: lit, ending: false) == .wait(until: start + 1_000 * ms))
        #expect(pacer.step(now: start + 10 * ms, payload: dim, ending: false) == .wait(until: start + 18_750_000))
        #expect(pacer.step(now: start + 18_750_000, payload: dim, ending: false) == .send)
    }

    @Test func continuousChangesGoOnePeriodApartWithoutDrift() {
        var pacer = OutputPacer(framesPerSecond: 40)
        var now: UInt64 = 1_000 * ms
        var sends: [UInt64] = []
        for frame in 0..<400 {
            let payload: [UInt8] = [UInt8(frame % 256), 0, 0]
            switch pacer.step(now: now, payload: payload, ending: false) {
            case .send: sends.append(now)
            case .wait(let until): if let until { now = until + 1 * ms } // every wake-up 1 ms late
            case .terminate: Issue.record("no end was asked for")
            }
        }
        // After the first send, each is 25 ms after the one before, however late the wake-ups.
        let intervals = zip(sends.dropFirst(2), sends.dropFirst()).map { $0 - $1 }
        #expect(intervals.allSatisfy { $0 == 25 * ms })
        #expect(sends.count > 100)
    }

    @Test func dataArrivingLateGoesAtOnceAndStartsFromThere() {
        var pacer = OutputPacer(framesPerSecond: 40)
        #expect(pacer.step(now: 100 * ms, payload: lit, ending: false) == .send)
        // 200 ms later: goes at once, and the next may go a period after it (less the tolerance).
        #expect(pacer.step(now: 300 * ms, payload: dim, ending: false) == .send)
        #expect(pacer.step(now: 301 * ms, payload: lit, ending: false) == .wait(until: 318_750_000))
    }

    @Test func aFeederAtTheSameRateGetsItsFramesOutOnArrivalWhateverThePhase() {
        // The output's first send was 4 ms late (a slow first frame); frames keep arriving on the feeder's clock.
        var pacer = OutputPacer(framesPerSecond: 40)
        #expect(pacer.step(now: 104 * ms, payload: [0], ending: false) == .send)
        for frame in 1..<200 {
            let arrival = 100 * ms + UInt64(frame) * 25 * ms
            #expect(pacer.step(now: arrival, payload: [UInt8(frame % 256)], ending: false) == .send, "frame \(frame)")
        }
    }

    @Test func aLateWakeUpDoesNotMakeLaterFramesLate() {
        // Frames every 25 ms; the sender handles each 0.2 ms after it arrives, but frame 5 a whole 8 ms late.
        var pacer = OutputPacer(framesPerSecond: 40)
        for frame in 0..<100 {
            let arrival = 1_000 * ms + UInt64(frame) * 25 * ms
            let now = arrival + (frame == 5 ? 8 * ms : 200_000)
            #expect(pacer.step(now: now, payload: [UInt8(frame % 256)], ending: false, arrival: arrival) == .send, "frame \(frame)")
        }
    }

    @Test func earlyDataWaitsOnlyUntilTheToleranceAllows() {
        var pacer = OutputPacer(framesPerSecond: 40)
        #expect(pacer.step(now: 100 * ms, payload: lit, ending: false) == .send)
        #expect(pacer.step(now: 124 * ms, payload: dim, ending: false) == .send) // 1 ms before its time
        #expect(pacer.step(now: 130 * ms, payload: lit, ending: false) == .wait(until: 143_750_000))
    }

    @Test func unchangedDataIsResentAboutOnceASecond() {
        var pacer = OutputPacer(framesPerSecond: 44)
        #expect(pacer.step(now: 5 * ms, payload: lit, ending: false) == .send)
        #expect(pacer.step(now: 500 * ms, payload: lit, ending: false) == .wait(until: 1_005 * ms))
        #expect(pacer.step(now: 1_005 * ms, payload: lit, ending: false) == .send)
        #expect(pacer.step(now: 1_006 * ms, payload: lit, ending: false) == .wait(until: 2_005 * ms))
    }

    @Test func anEndSendsBlackThreeTimesThenTerminatesThenSleeps() {
        var pacer = OutputPacer(framesPerSecond: 40)
        #expect(pacer.step(now: 0, payload: lit, ending: false) == .send)
        var now: UInt64 = 25 * ms
        var steps: [OutputPacer.Step] = []
        for _ in 0..<6 {
            let step = pacer.step(now: now, payload: black, ending: true)
            steps.append(step)
            if case .wait(let until) = step, let until { now = until }
        }
        #expect(steps == [.send, .wait(until: 43_750_000), .send, .wait(until: 68_750_000), .send, .terminate])
        #expect(!pacer.isLive)
        // Dark and ended: no deadline at all.
        #expect(pacer.step(now: now + 5_000 * ms, payload: black, ending: true) == .wait(until: nil))
        // Playing again lights it at once.
        #expect(pacer.step(now: now + 6_000 * ms, payload: lit, ending: false) == .send)
    }

    @Test func anOutputThatNeverLitSendsNothingAtTheEnd() {
        var pacer = OutputPacer(framesPerSecond: 44)
        #expect(pacer.step(now: 10 * ms, payload: black, ending: true) == .wait(until: nil))
        #expect(!pacer.isLive)
    }

    @Test func hostileRatesStayUsable() {
        #expect(OutputPacer(framesPerSecond: .nan).period == 1_000_000_000)
        #expect(OutputPacer(framesPerSecond: 0).period == 10_000_000_000)
        #expect(OutputPacer(framesPerSecond: 1e12).period == 1_000_000)
    }
}
