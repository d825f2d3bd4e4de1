import LightShowCore
import LightShowRecording
import Testing

@Suite struct FrameTimelineTests {
    static func frame(_ time: Double, bass: Float = 0, state: PlaybackState = .playing) -> ShowFrame {
        ShowFrame(index: 99, time: time, levels: BandLevels(bass: bass), state: state, title: "x", elapsed: time)
    }

    @Test func nSecondsGiveNTimesFpsFramesWhateverTheBlockSizes() {
        for fps in [24.0, 30, 60] {
            for blockSeconds in [0.001, 1.0 / 30, 0.37, 10] {
                var timeline = FrameTimeline(framesPerSecond: fps)
                var audio = 0.0, frames: [ShowFrame] = []
                while audio < 3 - 1e-12 {
                    audio = min(3, audio + blockSeconds)
                    timeline.add(Self.frame(audio))
                    frames += timeline.release(before: audio)
                }
                #expect(frames.count == Int(3 * fps), "fps \(fps), blocks of \(blockSeconds) s")
                #expect(frames.map(\.index) == Array(0..<Int(3 * fps)))
            }
        }
    }

    @Test func eachFrameShowsTheNewestShowFrameAtOrBeforeItsTime() {
        var timeline = FrameTimeline(framesPerSecond: 10)
        timeline.add(Self.frame(0.05, bass: 0.1))
        timeline.add(Self.frame(0.1, bass: 0.2))
        timeline.add(Self.frame(0.25, bass: 0.3, state: .paused))
        let frames = timeline.release(before: 0.4)
        #expect(frames.map(\.levels.bass) == [0, 0.2, 0.2, 0.3])
        #expect(frames.map(\.time) == [0, 0.1, 0.2, 0.3])
        #expect(frames.map(\.state) == [.playing, .playing, .playing, .paused], "dark before the first frame, in its state")
        #expect(frames[2].elapsed.map { abs($0 - 0.2) < 1e-9 } == true, "a playing song's position moves on")
    }

    @Test func theLastFrameReleasedShowsTheNewestFrameEvenOffTheGrid() {
        var timeline = FrameTimeline(framesPerSecond: 10)
        timeline.add(Self.frame(0.1, bass: 0.5))
        timeline.add(Self.frame(0.33, bass: 0, state: .stopped))
        let frames = timeline.releaseThroughLatest()
        #expect(frames.map(\.time) == [0, 0.1, 0.2, 0.3, 0.4])
        #expect(frames.last?.state == .stopped)
        #expect(frames.last?.levels == .zero)
    }
}
