import LightShowCore
import Testing
@testable import LightShowLights

/// The steady pacer of WLED audio sync against made-up clocks: one packet every period changed or not, a beat at
/// once, no burst after a stall, and a second of zeros at the end.
@Suite struct SteadyPacerTests {
    let ms: UInt64 = 1_000_000
    let a: [UInt8] = [1, 0]
    let b: [UInt8] = [2, 0]
    let zeros: [UInt8] = [0, 0]

    var pacer: OutputPacer {
        OutputPacer(settings: LightOutputSettings(protocol: .wledSync)) // 50 a second
    }

    @Test func unchangedDataGoesEveryTwentyMillisecondsOnAGrid() {
        var pacer = pacer
        var now: UInt64 = 1_000 * ms
        var sends: [UInt64] = []
        while sends.count < 100 {
            switch pacer.step(now: now, payload: a, ending: false) {
            case .send: sends.append(now)
            case .wait(let until): now = (until ?? now) + ms / 2 // every wake-up half a millisecond late
            case .terminate: Issue.record("no end was asked for")
            }
        }
        // The grid, not the late wake-ups, sets the times: no drift.
        #expect(sends.last! - sends.first! == 99 * 20 * ms + ms / 2)
    }

    @Test func newDataWaitsForTheGridButABeatGoesAtOnce() {
        var pacer = pacer
        let start: UInt64 = 1_000 * ms
        #expect(pacer.step(now: start, payload: a, ending: false) == .send)
        #expect(pacer.step(now: start + 5 * ms, payload: b, ending: false) == .wait(until: start + 20 * ms))
        let beat: [UInt8] = [2, 1]
        #expect(pacer.step(now: start + 6 * ms, payload: beat, ending: false, urgent: true) == .send)
        #expect(pacer.step(now: start + 6 * ms, payload: beat, ending: false, urgent: true) == .wait(until: start + 20 * ms))
        #expect(pacer.step(now: start + 20 * ms, payload: b, ending: false) == .send)
    }

    @Test func aStallCatchesUpByOnePacketRatherThanBursting() {
        var pacer = pacer
        let start: UInt64 = 1_000 * ms
        #expect(pacer.step(now: start, payload: a, ending: false) == .send)
        // 200 ms without a turn: two packets (half a period caught up), then the grid again, not ten at once.
        #expect(pacer.step(now: start + 200 * ms, payload: a, ending: false) == .send)
        #expect(pacer.step(now: start + 200 * ms, payload: a, ending: false) == .send)
        #expect(pacer.step(now: start + 200 * ms, payload: a, ending: false) == .wait(until: start + 210 * ms))
    }

    @Test func aBeatNearTheGridTakesItsPlace() {
        var pacer = pacer
        let start: UInt64 = 1_000 * ms
        #expect(pacer.step(now: start, payload: a, ending: false) == .send)
        #expect(pacer.step(now: start + 15 * ms, payload: b, ending: false, urgent: true) == .send)
        #expect(pacer.step(now: start + 15 * ms, payload: b, ending: false) == .wait(until: start + 40 * ms))
    }

    @Test func theEndIsOneSecondOfZerosThenNothing() {
        var pacer = pacer
        var now: UInt64 = 1_000 * ms
        #expect(pacer.step(now: now, payload: a, ending: false) == .send)
        var zeroSends: [UInt64] = []
        var ended = false
        while !ended && now < 5_000 * ms {
            switch pacer.step(now: now, payload: zeros, ending: true) {
            case .send: zeroSends.append(now)
            case .wait(let until): now = until ?? now
            case .terminate: ended = true
            }
        }
        #expect(ended && zeroSends.count == 50)
        #expect(zeroSends.last! - zeroSends.first! == 49 * 20 * ms)
        #expect(pacer.step(now: now + 1_000 * ms, payload: zeros, ending: true) == .wait(until: nil))
    }
}
