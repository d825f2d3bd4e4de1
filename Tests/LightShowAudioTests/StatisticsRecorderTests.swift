@testable import LightShowAudio
import Synchronization
import Testing

/// What a source tells the daemon's status line, and when: on changes worth a STATUS= line, never per block.
@Suite struct StatisticsRecorderTests {
    static let second: UInt64 = 1_000_000_000

    /// A recorder and the number of announcements it has made.
    static func recorder() -> (StatisticsRecorder, heard: @Sendable () -> Int) {
        let recorder = StatisticsRecorder()
        let count = Atomic<Int>(0)
        recorder.changes.listen { count.add(1, ordering: .relaxed) }
        return (recorder, { count.load(ordering: .relaxed) })
    }

    @Test func blocksOfFlowingAudioAreNotAnnouncedButAudioAfterSilenceIs() {
        let (recorder, heard) = Self.recorder()
        let start: UInt64 = 50 * Self.second
        recorder.alive(at: start)
        #expect(heard() == 1, "the first pulse: the input can now be told silent")
        recorder.progressed(frames: 441, at: start)
        #expect(heard() == 2, "first audio, and starting → running")
        for block in 1...100 {
            recorder.alive(at: start + UInt64(block) * 10_000_000)
            recorder.progressed(frames: 441, at: start + UInt64(block) * 10_000_000)
        }
        #expect(heard() == 2, "a second of flowing audio changes nothing status shows")
        // The reader's pulse in a quiet pipe sees the input turn silent, a second after the last audio.
        let lastAudio = start + 100 * 10_000_000
        recorder.alive(at: lastAudio + Self.second)
        #expect(heard() == 2, "a second of quiet is not silence yet")
        recorder.alive(at: lastAudio + Self.second + 250_000_000)
        #expect(heard() == 3, "the input turned silent")
        recorder.alive(at: lastAudio + Self.second + 500_000_000)
        #expect(heard() == 3, "still silent")
        recorder.progressed(frames: 441, at: lastAudio + 2 * Self.second)
        #expect(heard() == 4, "audio again")
        recorder.update { $0.overruns += 1 }
        recorder.update { $0.framesDelivered += 1 }
        #expect(heard() == 5, "an overrun counts, frames alone don't")
    }

    @Test func theInputTurnsSilentASecondAfterTheLastAudio() {
        var statistics = CaptureStatistics()
        statistics.lastProgressNanoseconds = 10 * Self.second
        #expect(!statistics.isSilent(now: 20 * Self.second), "a reader without a pulse is never told silent")
        statistics.lastAliveNanoseconds = 10 * Self.second
        statistics.state = .running
        #expect(!statistics.isSilent(now: 11 * Self.second))
        #expect(statistics.isSilent(now: 11 * Self.second + 1))
        statistics.state = .lost
        #expect(!statistics.isSilent(now: 20 * Self.second))
    }
}
