import LightShowCore
import Testing

@Suite struct FrameTimelineTests {
    @Test func nSecondsGiveNTimesFpsFramesWhateverTheBlockSizes() {
        for fps in [24.0, 30, 60] {
            for blockSeconds in [0.001, 1.0 / 30, 0.37, 10] {
                var timeline = FrameTimeline(framesPerSecond: fps)
                var audio = 0.0, frames: [ShowFrame] = []
                while audio < 3 - 1e-12 {
                    audio = min(3, audio + blockSeconds)
                    frames += timeline.release(upTo: audio, state: .playing, title: "x")
                }
                #expect(frames.count == Int(3 * fps), "fps \(fps), blocks of \(blockSeconds) s")
                #expect(frames.map(\.index) == Array(0..<Int(3 * fps)))
            }
        }
    }

    @Test func eachFrameShowsTheNewestAnalysisAtOrBeforeItsTime() {
        var timeline = FrameTimeline(framesPerSecond: 10)
        timeline.add([
            AnalysisFrame(time: 0.05, levels: BandLevels(bass: 0.1), hasSound: true, rmsDBFS: -20),
            AnalysisFrame(time: 0.1, levels: BandLevels(bass: 0.2), hasSound: true, rmsDBFS: -20),
            AnalysisFrame(time: 0.25, levels: BandLevels(bass: 0.3), hasSound: true, rmsDBFS: -20),
        ])
        let frames = timeline.release(upTo: 0.4, state: .playing, title: "x")
        #expect(frames.map(\.levels.bass) == [0, 0.2, 0.2, 0.3])
        #expect(frames.map(\.time) == [0, 0.1, 0.2, 0.3])
    }
}
