import LightShowCore
import Logging

/// Everything the engine's loop hears about.
enum ShowEvent: Sendable {
    case block(SampleBlock)
    case inputEnded
    case mpd(MPDEvent)
    case user(UserCommand)
    /// A reloaded configuration (bands and analysis settings).
    case reconfigure(Configuration)
    /// A deadline the loop asked for: idle_after, or a refresh while the source is stalled.
    case timer
}

/// The engine's state: the playback machine, the effects, the analyser, and the frame counter. Whoever holds it
/// steps it with one event at a time, synchronously (the engine keeps it behind a lock, so each captured block is
/// handled on the source's reader thread without a hop). Live inputs run on the wall clock; offline ones on a
/// clock that follows the audio timeline, so a file gives the same show however fast it is read.
struct ShowLoop<C: Clock> where C.Duration == Duration {
    let clock: C
    /// Offline only: moves the clock to an audio time (seconds).
    let followAudio: ((Double) -> Void)?
    let analyzer: any BlockAnalyzer
    let logger: Logger
    let report: (ShowStatus) -> Void
    let onFrame: (ShowFrame) throws -> Void
    /// Called (on a timer's task) when a deadline the loop asked for is reached; it should step `.timer`.
    var wake: @Sendable () -> Void = {}
    let frameInterval: Duration
    private(set) var silenceThresholdDBFS: Double

    private let start: C.Instant
    private var machine: PlaybackStateMachine<C>
    private var effects: PlaybackEffects
    private var nowPlaying: NowPlaying
    private var frameIndex = 0
    private var lastAudioTime = 0.0
    /// Audio skipped while asleep: the analyser never saw it, so its frame times lag by this much.
    private var skippedSeconds = 0.0
    private var lastEmit: C.Instant?
    /// Set once the dark frame of a stop went out; from then on, analysis and rendering sleep.
    private var sentDarkFrame = false
    /// When to check whether the source stalled and the screen needs a frame (live only).
    private var refreshDeadline: C.Instant?
    private var timer: (deadline: C.Instant, task: Task<Void, Never>)?

    init(
        clock: C, followAudio: ((Double) -> Void)?, analyzer: any BlockAnalyzer, spec: InputSpec,
        configuration: Configuration, framesPerSecond: Double,
        logger: Logger, report: @escaping (ShowStatus) -> Void, onFrame: @escaping (ShowFrame) throws -> Void
    ) {
        self.clock = clock
        self.followAudio = followAudio
        self.analyzer = analyzer
        self.logger = logger
        self.report = report
        self.onFrame = onFrame
        frameInterval = .seconds(1 / max(1, framesPerSecond))
        silenceThresholdDBFS = configuration.analysis.silenceThresholdDBFS
        start = clock.now
        machine = PlaybackStateMachine(settings: configuration.playback, clock: clock)
        effects = PlaybackEffects(settings: configuration.playback)
        nowPlaying = NowPlaying(spec: spec)
    }

    private var isLive: Bool { followAudio == nil }
    private var showSeconds: Double { start.duration(to: clock.now).inSeconds }
    /// Stopped and dark on a live input: nothing to analyse or draw until the state changes.
    private var isAsleep: Bool { isLive && machine.state == .stopped && sentDarkFrame }

    /// The input started: the machine's first step.
    mutating func begin() {
        apply(machine.inputStarted())
        armTimer()
    }

    /// Handles one event, drawing any frames it makes. Throws what `onFrame` throws.
    mutating func step(_ event: ShowEvent) throws {
        switch event {
        case .block(let block):
            try handle(block)
        case .inputEnded:
            apply(machine.inputEnded())
            stopTimer()
            return
        case .mpd(.status(let status)):
            let previousTitle = nowPlaying.title
            nowPlaying.update(status, at: showSeconds)
            if nowPlaying.title != previousTitle { logger.info("title: \(nowPlaying.title)") }
            apply(machine.mpd(status.state))
            askForRefresh()
        case .mpd(.lost):
            nowPlaying.update(nil, at: showSeconds)
            apply(machine.mpdLost())
            askForRefresh()
        case .user(let command):
            apply(machine.user(command))
        case .reconfigure(let configuration):
            analyzer.reconfigure(analysis: configuration.analysis, bands: configuration.bands)
            silenceThresholdDBFS = configuration.analysis.silenceThresholdDBFS
        case .timer:
            timer = nil
            apply(machine.timeoutTriggered())
            try refreshIfStalled()
        }
        armTimer()
    }

    /// The show is over: no timer may fire again.
    mutating func stopTimer() {
        timer?.task.cancel()
        timer = nil
    }

    private mutating func handle(_ block: SampleBlock) throws {
        lastAudioTime = block.endTime
        if isAsleep {
            // Only a cheap level check watches for sound while asleep.
            apply(machine.audio(hasSound: block.isLouder(thanDBFS: silenceThresholdDBFS)))
            if isAsleep {
                skippedSeconds += Double(block.frameCount) / Double(block.sampleRate)
                return
            }
        }
        for frame in analyzer.process(block) {
            let time = frame.time + skippedSeconds
            followAudio?(time)
            apply(machine.audio(hasSound: frame.hasSound))
            try emit(time: time, live: frame.levels)
        }
    }

    /// Draws one frame, unless the show is already dark and the dark frame went out.
    private mutating func emit(time: Double, live: BandLevels?) throws {
        let seconds = showSeconds
        let dark = isLive && machine.state == .stopped && effects.isDark(at: seconds)
        if dark && sentDarkFrame { return }
        sentDarkFrame = dark
        let frame = ShowFrame(
            index: frameIndex,
            time: time,
            levels: effects.levels(live: live, at: seconds),
            state: machine.state,
            title: nowPlaying.title,
            elapsed: machine.state == .stopped ? nil : nowPlaying.elapsed(at: seconds, audioTime: time)
        )
        frameIndex += 1
        lastEmit = clock.now
        try onFrame(frame)
    }

    /// Applies what the machine decided: logs the change once, with its reason, and starts its effect.
    private mutating func apply(_ action: PlaybackStateMachine<C>.Action) {
        if let state = action.newState, let reason = action.reason {
            logger.info("\(state.rawValue): \(reason)")
            effects.enter(state, at: showSeconds)
            sentDarkFrame = false
            askForRefresh()
        }
        report(ShowStatus(
            state: machine.state, reason: machine.reason, title: nowPlaying.title, mpdConnected: machine.isMPDConnected
        ))
    }

    /// On a live input, makes sure the screen shows a change within two frames even if no audio arrives.
    private mutating func askForRefresh() {
        guard isLive, !isAsleep else { return }
        refreshDeadline = clock.now.advanced(by: frameInterval * 2)
    }

    private mutating func refreshIfStalled() throws {
        guard let due = refreshDeadline, due <= clock.now else { return }
        refreshDeadline = nil
        let stalled = lastEmit.map { $0.duration(to: clock.now) >= frameInterval * 1.5 } ?? true
        if stalled {
            try emit(time: lastAudioTime, live: nil)
        }
        // Keep a stalled fade moving until the lights are out.
        if machine.state == .stopped && !sentDarkFrame {
            refreshDeadline = clock.now.advanced(by: frameInterval)
        }
    }

    /// Keeps one timer for the nearest deadline (live only). Nothing is armed while asleep: nothing polls.
    private mutating func armTimer() {
        guard isLive else { return }
        // Runs after every block: no array for two optionals.
        let wanted: C.Instant
        switch (machine.idleDeadline, refreshDeadline) {
        case let (idle?, refresh?): wanted = min(idle, refresh)
        case let (deadline?, nil), let (nil, deadline?): wanted = deadline
        case (nil, nil): return
        }
        if let timer, timer.deadline <= wanted { return }
        timer?.task.cancel()
        let clock = clock, wake = wake
        timer = (wanted, Task {
            do {
                try await clock.sleep(until: wanted, tolerance: nil)
                wake()
            } catch {}
        })
    }
}
