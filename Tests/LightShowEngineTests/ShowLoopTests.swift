import LightShowAnalysis
import LightShowCore
@testable import LightShowEngine
import LightShowNowPlaying
import Testing
import TestSupport

/// The show loop alone: each input, with a manual clock and the real analyser, and the actions it decides.
@Suite struct ShowLoopTests {
    static let fps = 20.0
    static let rate = 48_000

    /// Short timings: idle after 1 s, a 0.3 s fade.
    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.playback.idleAfterSeconds = 1
        configuration.playback.fadeOutSeconds = 0.3
        return configuration
    }

    /// An action as a test compares it.
    enum Decided: Equatable {
        case audio(startFrame: Int64)
        case frame(index: Int, state: PlaybackState)
        case framesDone
        case armTimer(at: Duration)
        case cancelTimer
        case forward(UserCommand)
        case report(PlaybackState, PlaybackReason, title: String)
        case pace(asleep: Bool)
        case releaseStartupPages
        case log

        init(_ action: ShowLoop<ManualClock>.Action) {
            switch action {
            case .audio(let block): self = .audio(startFrame: block.startFrame)
            case .frame(let frame, _): self = .frame(index: frame.index, state: frame.state)
            case .framesDone: self = .framesDone
            case .armTimer(let instant): self = .armTimer(at: instant.offset)
            case .cancelTimer: self = .cancelTimer
            case .forward(let command): self = .forward(command)
            case .report(let status): self = .report(status.state, status.reason, title: status.title)
            case .pace(let asleep): self = .pace(asleep: asleep)
            case .releaseStartupPages: self = .releaseStartupPages
            case .log: self = .log
            }
        }
    }

    /// A live loop on `clock` (followAudio nil: the loop reads the clock, nothing moves it but the test).
    static func liveLoop(
        _ clock: ManualClock, playerName: String? = nil, fadeOutTail: Bool = false, passesAudio: Bool = true
    ) -> ShowLoop<ManualClock> {
        ShowLoop(
            clock: clock, followAudio: nil,
            analyzer: LevelAnalyzer(settings: configuration.analysis, bands: configuration.bands, sampleRate: rate, framesPerSecond: fps),
            spec: .demo, sampleRate: rate, configuration: configuration,
            options: .init(framesPerSecond: fps, fadeOutTail: fadeOutTail), playerName: playerName, passesAudio: passesAudio
        )
    }

    /// `seconds` of a loud 60 Hz tone (or silence), mono, starting at `startFrame`.
    static func block(tone: Bool, seconds: Double = 0.1, startFrame: Int64 = 0) -> SampleBlock {
        let samples = tone ? Signals.sine(frequency: 60, seconds: seconds, sampleRate: rate) : Signals.silence(seconds: seconds, sampleRate: rate)
        return SampleBlock(samples: samples, channels: 1, sampleRate: rate, startFrame: startFrame)
    }

    private func decided(_ body: (inout [ShowLoop<ManualClock>.Action]) -> Void) -> [Decided] {
        var actions: [ShowLoop<ManualClock>.Action] = []
        body(&actions)
        return actions.map(Decided.init)
    }

    @Test func theStartReportsPlayingAndTouchesNoSink() {
        let clock = ManualClock()
        var loop = Self.liveLoop(clock)
        #expect(decided { loop.begin(&$0) } == [.log, .report(.playing, .inputStarted, title: "Demo")])
    }

    @Test func aBlockGoesToTheSinksBeforeItsFramesAndArmsOneTimer() {
        let clock = ManualClock()
        var loop = Self.liveLoop(clock)
        _ = decided { loop.begin(&$0) }
        var wantsMore = true
        let first = decided { wantsMore = loop.handle(Self.block(tone: true), &$0) }
        #expect(wantsMore)
        // 0.1 s at 20 fps: two frames. The start asked for a refresh two frames on: the nearest deadline.
        #expect(first == [
            .audio(startFrame: 0), .frame(index: 0, state: .playing),
            .frame(index: 1, state: .playing), .armTimer(at: .milliseconds(100)), .pace(asleep: false),
            .framesDone,
        ])
        // The same state, the same timer, the same pace: only the audio and the frames.
        let second = decided { _ = loop.handle(Self.block(tone: true, startFrame: 4_800), &$0) }
        #expect(second == [
            .audio(startFrame: 4_800), .frame(index: 2, state: .playing),
            .frame(index: 3, state: .playing), .framesDone,
        ])
    }

    @Test func aStalledInputIsRefreshedAndIdlesOutOnItsTimers() {
        let clock = ManualClock()
        var loop = Self.liveLoop(clock)
        _ = decided { loop.begin(&$0) }
        // Early: nothing due, the same deadline is armed again.
        #expect(decided { loop.handle(.timer, &$0) } == [.armTimer(at: .milliseconds(100)), .pace(asleep: false)])
        clock.advance(by: .milliseconds(100))
        // No audio came: the screen gets a frame, and the next deadline is idle_after.
        #expect(decided { loop.handle(.timer, &$0) } == [
            .frame(index: 0, state: .playing), .armTimer(at: .seconds(1)), .framesDone,
        ])
        clock.advance(by: .milliseconds(900))
        let idled = decided { loop.handle(.timer, &$0) }
        #expect(idled.contains(.report(.stopped, .silence(seconds: 1), title: "Demo")))
        #expect(idled.contains(.frame(index: 1, state: .stopped)), "the stop shows at once")
        #expect(idled.last == .framesDone)
    }

    @Test func asleepABlockReachesTheSinksAndNothingElse() {
        let clock = ManualClock()
        var loop = Self.liveLoop(clock)
        _ = decided { loop.begin(&$0) }
        let stop = decided { loop.handle(.user(.stop), &$0) }
        #expect(stop.contains(.report(.stopped, .user(.stop), title: "Demo")))
        #expect(stop.contains(.frame(index: 0, state: .stopped)))
        // The fade is over by the refresh after it: the dark frame, then sleep (no audio came: every frame is dark).
        clock.advance(by: .milliseconds(400))
        #expect(decided { loop.handle(.timer, &$0) } == [
            .frame(index: 1, state: .stopped), .pace(asleep: true), .releaseStartupPages, .framesDone,
        ])
        // A user's stop holds whatever the audio does: no frame, no timer, nothing but the audio for the sinks.
        #expect(decided { _ = loop.handle(Self.block(tone: false), &$0) } == [.audio(startFrame: 0)])
        #expect(decided { _ = loop.handle(Self.block(tone: true, startFrame: 4_800), &$0) } == [.audio(startFrame: 4_800)])
        // A command wakes it.
        let play = decided { loop.handle(.user(.play), &$0) }
        #expect(play.contains(.report(.playing, .user(.play), title: "Demo")))
        #expect(play.contains(.pace(asleep: false)))
        #expect(play.contains(.frame(index: 2, state: .playing)))
    }

    @Test func withoutASinkForTheAudioABlockDecidesOnlyFramesAndAsleepNothing() {
        let clock = ManualClock()
        var loop = Self.liveLoop(clock, passesAudio: false)
        _ = decided { loop.begin(&$0) }
        #expect(decided { _ = loop.handle(Self.block(tone: true), &$0) } == [
            .frame(index: 0, state: .playing), .frame(index: 1, state: .playing), .armTimer(at: .milliseconds(100)),
            .pace(asleep: false), .framesDone,
        ])
        _ = decided { loop.handle(.user(.stop), &$0) }
        clock.advance(by: .milliseconds(400))
        #expect(decided { loop.handle(.timer, &$0) }.contains(.pace(asleep: true)))
        #expect(decided { _ = loop.handle(Self.block(tone: false, startFrame: 4_800), &$0) } == [])
    }

    @Test func aUserCommandGoesOnToAPlayerThatTakesCommands() {
        let clock = ManualClock()
        var loop = Self.liveLoop(clock, playerName: "MPD")
        _ = decided { loop.begin(&$0) }
        let playing = decided { loop.handle(.player(.status(NowPlayingStatus(state: .playing, title: "Song"))), &$0) }
        #expect(playing.contains(.report(.playing, .player(.playing), title: "Song")))
        #expect(playing.contains(.frame(index: 0, state: .playing)), "the title shows at once")
        let paused = decided { loop.handle(.user(.pause), &$0) }
        #expect(paused.contains(.forward(.pause)))
        #expect(paused.contains(.report(.paused, .user(.pause), title: "Song")))

        // A player that takes no commands is only followed.
        var follower = Self.liveLoop(clock, playerName: "MPRIS")
        _ = decided { follower.begin(&$0) }
        _ = decided { follower.handle(.player(.status(NowPlayingStatus(state: .playing, title: "Song", canControl: false))), &$0) }
        let ignored = decided { follower.handle(.user(.pause), &$0) }
        #expect(!ignored.contains { if case .forward = $0 { true } else { false } })
        #expect(ignored.contains(.report(.paused, .user(.pause), title: "Song")))
    }

    @Test func theEndCancelsTheTimerAndARecordingFadesOutToDark() {
        let clock = ManualClock()
        var loop = Self.liveLoop(clock, fadeOutTail: true)
        _ = decided { loop.begin(&$0) }
        _ = decided { _ = loop.handle(Self.block(tone: true), &$0) }
        var actions: [ShowLoop<ManualClock>.Action] = []
        loop.finish(&actions)
        let end = actions.map(Decided.init)
        #expect(end.contains(.report(.stopped, .inputEnded, title: "Demo")))
        #expect(end.contains(.cancelTimer))
        let frames = actions.compactMap { if case .frame(let frame, _) = $0 { frame } else { nil } }
        // 0.3 s of fade at 20 fps after the tone's two frames: the stop, six frames of fade, the last one dark.
        #expect(frames.map(\.index) == Array(2..<9))
        #expect(frames.allSatisfy { $0.state == .stopped })
        #expect(frames.last?.levels == .zero && frames.dropLast().allSatisfy { $0.levels != .zero })
        #expect(end.last == .framesDone)
    }
}
