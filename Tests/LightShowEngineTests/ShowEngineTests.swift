import Foundation
import LightShowAudio
import LightShowCore
import LightShowEngine
import Synchronization
import LightShowNowPlaying
import Testing
import TestSupport

/// The engine with real sources (libsndfile files, the demo synth) and the real analyser.
@Suite struct ShowEngineTests {
    static let fps = 20.0

    /// Short timings so a test runs in seconds.
    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.playback.idleAfterSeconds = 1
        configuration.playback.fadeOutSeconds = 0.3
        configuration.playback.pausedDim = 0.5
        return configuration
    }

    /// A WAV of 1 s of 60 Hz, 3 s of silence, 1 s of 60 Hz.
    static func toneGapTone(in directory: TemporaryDirectory) throws -> String {
        let tone = Signals.sine(frequency: 60, seconds: 1)
        let samples = tone + Signals.silence(seconds: 3) + tone
        return try directory.write("gap.wav", Signals.wav(samples, channels: 1, sampleRate: 48_000))
    }

    /// Runs `engine` on a task, recording its frames; `sinks` get everything too.
    static func start(_ engine: ShowEngine, also sinks: [any ShowSink] = []) -> (frames: StreamRecorder<ShowFrame>, task: Task<Void, any Error>) {
        let (stream, continuation) = AsyncStream.makeStream(of: ShowFrame.self)
        let task = Task {
            defer { continuation.finish() }
            try await engine.run([FrameHandler { continuation.yield($0) }] + sinks)
        }
        return (StreamRecorder(stream), task)
    }

    /// Plays the file at `path` as a live input, in real time, to its end: every frame, and the engine.
    static func playLive(_ path: String) async throws -> (frames: [ShowFrame], engine: ShowEngine) {
        let source = try AudioSources.open(.file(path: path), pacing: .realtime)
        #expect(source.isLive)
        let engine = ShowEngine(source: source, configuration: configuration, options: .init(framesPerSecond: fps))
        let (recorder, task) = start(engine)
        try await task.value
        try await waitFor("all frames recorded", timeout: 30) { recorder.isFinished }
        return (recorder.elements, engine)
    }

    @Test func offlineFileIdlesOnSilenceAndPlaysWhenSoundReturns() async throws {
        let directory = try TemporaryDirectory()
        let source = try AudioSources.open(.file(path: Self.toneGapTone(in: directory)), pacing: .offline)
        let engine = ShowEngine(source: source, configuration: Self.configuration, options: .init(framesPerSecond: Self.fps))
        let collected = Mutex<[ShowFrame]>([])
        try await engine.run([FrameHandler { frame in collected.withLock { $0.append(frame) } }])
        let frames = collected.withLock { $0 }

        // Offline, every frame is there: the show never sleeps on a file read ahead of time.
        #expect(frames.count == Int(5 * Self.fps))
        #expect(frames.map(\.index) == Array(0..<frames.count))
        #expect(frames.allSatisfy { $0.title == "gap.wav" })
        let stop = try #require(frames.first { $0.state == .stopped })
        // Sound ends at 1 s, the gate closes within its hold, then idle_after (1 s) runs out.
        #expect(stop.time > 2.0 && stop.time < 2.6, "stopped at \(stop.time)")
        let restart = try #require(frames.first { $0.time > stop.time && $0.state == .playing })
        #expect(restart.time >= 4.0 && restart.time < 4.2, "played again at \(restart.time)")
        #expect(frames.filter { $0.time > 2.95 && $0.time < 4.0 }.allSatisfy { $0.state == .stopped && $0.levels == .zero })
        #expect(restart.levels.bass > 0.3)
        // The file position is the elapsed time while playing, and stopped frames carry none.
        #expect(frames.first { $0.state == .playing }?.elapsed == frames.first?.time)
        #expect(stop.elapsed == nil)
        #expect(engine.status.state == .stopped)
        #expect(engine.status.reason == .inputEnded)
    }

    @Test func liveInputSleepsWhileStoppedAndSilentAndWakesOnSound() async throws {
        let directory = try TemporaryDirectory()
        let (all, _) = try await Self.playLive(Self.toneGapTone(in: directory))

        let firstStop = try #require(all.firstIndex { $0.state == .stopped })
        let wake = try #require(all.indices.first { $0 > firstStop && all[$0].state == .playing })
        // The last frame before the wake is the dark one that ends the fade...
        let dark = all[wake - 1]
        #expect(dark.state == .stopped && dark.levels == .zero)
        #expect(dark.time - all[firstStop].time < 0.3 + 2 / Self.fps + 0.01)
        // ...then nothing is drawn until sound returns at 4 s, and the timeline is still right after the sleep.
        #expect(all[wake].time - dark.time > 1, "frames at \(dark.time) then \(all[wake].time)")
        #expect(all[wake].time >= 4.0 && all[wake].time < 4.3, "woke at \(all[wake].time)")
        #expect(all.count < Int(5 * Self.fps) - Int(Self.fps))
    }

    /// A stereo signal the analysis calls silence (its channels cancel in the mono mix) doesn't wake a show that
    /// went to sleep, though each channel alone is far above the threshold.
    @Test func aSleepingShowStaysAsleepOnSoundTheAnalysisCallsSilence() async throws {
        let directory = try TemporaryDirectory()
        let tone = Signals.sine(frequency: 60, seconds: 1)
        var samples = (tone + Signals.silence(seconds: 3)).flatMap { [$0, $0] }
        // 2 s of 1 kHz at -35 dBFS per channel (the threshold is -60), the right channel inverted.
        for sample in Signals.sine(frequency: 1000, seconds: 2, amplitude: 0.025) { samples += [sample, -sample] }
        let (all, engine) = try await Self.playLive(directory.write("antiphase.wav", Signals.wav(samples, channels: 2, sampleRate: 48_000)))

        let firstStop = try #require(all.firstIndex { $0.state == .stopped })
        let dark = try #require(all.indices.first { $0 > firstStop && all[$0].levels == .zero })
        #expect(all[dark...].allSatisfy { $0.state == .stopped }, "woke at \(all[dark...].first { $0.state != .stopped }?.time ?? 0)")
        #expect(engine.status.reason == .inputEnded)
    }

    @Test func reloadedPlaybackSettingsReachTheRunningShow() async throws {
        let source = try AudioSources.open(.demo, pacing: .realtime)
        let engine = ShowEngine(source: source, configuration: Self.configuration, options: .init(framesPerSecond: Self.fps))
        let (frames, task) = Self.start(engine)
        defer { task.cancel() }

        let seen = try await frames.first("playing with light", timeout: 20) { $0.state == .playing && $0.levels.bass > 0 }.index
        engine.send(.pause)
        let paused = try await frames.first("paused", after: seen) { $0.state == .paused }
        let held = try #require(frames.elements[..<paused.index].last { $0.state == .playing }).levels
        #expect(paused.arrival.element.levels == held.scaled(by: 0.5))
        var reloaded = Self.configuration
        reloaded.playback.pausedDim = 0.2
        engine.reconfigure(reloaded)
        try await frames.first("paused at the reloaded dim", after: paused.index) { $0.levels == held.scaled(by: 0.2) }
        #expect(engine.status.state == .paused)
    }

    @Test func reloadedAccentsReachTheRunningShow() async throws {
        let source = try AudioSources.open(.demo, pacing: .realtime)
        let engine = ShowEngine(source: source, configuration: Self.configuration, options: .init(framesPerSecond: Self.fps))
        let (frames, task) = Self.start(engine)
        defer { task.cancel() }

        let accented = try await frames.first("an onset", timeout: 20) { !$0.onsets.isEmpty && $0.accent != .zero }.index
        var reloaded = Self.configuration
        reloaded.accents.enabled = false
        engine.reconfigure(reloaded)
        // Half a second of real time for the reload to land, then the demo's beat (every half second) for two
        // seconds lights nothing.
        let start = frames.elements[accented].time
        let off = try await frames.first("half a second on", after: accented) { $0.time >= start + 0.5 }.index
        let later = try await frames.first("two seconds on", after: off) { $0.time >= start + 2.5 }.index
        #expect(frames.elements[off...later].allSatisfy { $0.accent == .zero && $0.onsets.isEmpty && $0.levels == $0.envelope })
        reloaded.accents.enabled = true
        engine.reconfigure(reloaded)
        try await frames.first("accents back", after: later) { !$0.onsets.isEmpty && $0.accent != .zero }
    }

    /// Counts the audio frames the engine hands its sinks.
    final class AudioCounter: ShowSink {
        private let count = Atomic<Int>(0)
        var frames: Int { count.load(ordering: .relaxed) }
        var takesAudio: Bool { true }
        func audio(_ block: SampleBlock) throws { count.add(block.frameCount, ordering: .relaxed) }
        func show(_ frame: ShowFrame) throws {}
    }

    @Test func userCommandsPauseHoldAndStop() async throws {
        let source = try AudioSources.open(.demo, pacing: .realtime)
        // The show's time moves only when the test moves it: the fade, the idle deadline, every timer.
        let clock = ManualClock()
        let engine = ShowEngine(
            source: source, configuration: Self.configuration, options: .init(framesPerSecond: Self.fps), clock: clock
        )
        let statusChanges = Atomic<Int>(0)
        engine.statusChanges.listen { statusChanges.add(1, ordering: .relaxed) }
        let audio = AudioCounter()
        let (frames, task) = Self.start(engine, also: [audio])
        defer { task.cancel() }

        var seen = try await frames.first("playing with light", timeout: 20) { $0.state == .playing && $0.levels.bass > 0 }.index
        #expect(frames.elements[seen].title == "Demo")
        engine.send(.pause)
        let paused = try await frames.first("paused", after: seen) { $0.state == .paused }
        let lastPlaying = try #require(frames.elements[..<paused.index].last { $0.state == .playing })
        #expect(paused.arrival.element.levels == lastPlaying.levels.scaled(by: 0.5))
        // The held levels stay while the demo goes on.
        seen = try await frames.first("more paused frames", after: paused.index + 5) { $0.state == .paused }.index
        #expect(frames.elements[seen].levels == paused.arrival.element.levels)
        #expect(engine.status.reason == .user(.pause))
        // Status changes are announced as they happen (stopped → playing → paused), not with every frame.
        let announced = statusChanges.load(ordering: .relaxed)
        #expect(announced >= 2 && announced <= 3, "\(announced) announcements")
        try await frames.first("yet more paused frames", after: seen + 5) { $0.state == .paused }
        #expect(statusChanges.load(ordering: .relaxed) == announced)

        engine.send(.stop)
        let stopped = try await frames.first("stopped", after: seen) { $0.state == .stopped }.index
        // Past the 0.3 s fade: the next analysis frame is the dark one.
        clock.advance(by: .seconds(1))
        let dark = try await frames.first("dark", after: stopped) { $0.state == .stopped && $0.levels == .zero }.index
        // The demo keeps sounding, but a user's stop holds: no frames while stopped and dark, through 1.5 s of the
        // show's clock and of the demo's audio.
        let count = frames.all.count
        let heard = audio.frames
        clock.advance(by: .seconds(1.5))
        try await waitFor("1.5 s more of the demo's audio", timeout: 30) { audio.frames >= heard + source.sampleRate * 3 / 2 }
        #expect(frames.all.count == count, "frames after the dark one: \(frames.elements[(dark + 1)...].map(\.state))")
        #expect(engine.status.state == .stopped)

        engine.send(.play)
        try await frames.first("playing again", after: dark) { $0.state == .playing }
        #expect(engine.status.reason == .user(.play))
    }
}
