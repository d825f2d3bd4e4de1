public import LightShowCore
import LightShowAudio
import LightShowSystem
import LightShowNowPlaying
import Logging

/// Everything the engine hears about besides the audio.
enum ShowEvent: Sendable {
    case player(NowPlayingEvent)
    case user(UserCommand)
    /// A reloaded configuration: bands, analysis and playback settings.
    case reconfigure(Configuration)
    /// A deadline the loop asked for: idle_after, or a refresh while the source is stalled.
    case timer
}

/// The engine's state, owned by one task: the playback machine, the effects, the analyser, and the frame counter.
/// Live inputs run on the wall clock; offline ones on a clock that follows the audio timeline, so a file gives
/// the same show however fast it is read.
struct ShowLoop<C: Clock> where C.Duration == Duration {
    let clock: C
    /// Offline only: moves the clock to an audio time (seconds).
    let followAudio: ((Double) -> Void)?
    let analyzer: any BlockAnalyzer
    let inbox: AsyncStream<ShowEvent>.Continuation
    /// Told when the show falls asleep or wakes, so a live reader can wake less often meanwhile.
    let pace: ReaderPace?
    /// Where the user's commands go on to (MPD, an MPRIS player), if anywhere.
    let player: (any NowPlayingSource)?
    let logger: Logger
    let report: (ShowStatus) -> Void
    let framesPerSecond: Double
    let frameInterval: Duration
    private(set) var silenceThresholdDBFS: Double
    /// Input frames to take in before the input counts as ended (`Options.audioLimitSeconds`), if any.
    private let audioLimit: Int64?
    private let fadeOutTail: Bool
    private var consumedFrames: Int64 = 0

    private let start: C.Instant
    private var machine: PlaybackStateMachine<C>
    private var effects: PlaybackEffects
    private var nowPlaying: NowPlaying
    private var frameIndex = 0
    /// Frames handed out so far.
    var emittedFrames: Int { frameIndex }
    private var lastAudioTime = 0.0
    /// Audio skipped while asleep never reached the analyser, so its frame times lag by this much.
    private var skippedSeconds = 0.0
    private var lastEmit: C.Instant?
    /// Set once the dark frame of a stop went out; from then on, analysis and rendering sleep.
    private var sentDarkFrame = false
    /// When to check whether the source stalled and the screen needs a frame (live only).
    private var refreshDeadline: C.Instant?
    /// The armed timer: when it fires, and its task. Kept apart so the check after every block copies no task.
    private var timerDeadline: C.Instant?
    private var timerTask: Task<Void, Never>?
    /// Live audio that completes no hop yet, waiting for the block that does (see `holds(_:)`).
    private var heldBlocks: [SampleBlock] = []
    private var heldFrames = 0

    init(
        clock: C, followAudio: ((Double) -> Void)?, analyzer: any BlockAnalyzer, spec: InputSpec, sampleRate: Int,
        configuration: Configuration, options: ShowEngine.Options,
        inbox: AsyncStream<ShowEvent>.Continuation, pace: ReaderPace?, player: (any NowPlayingSource)?, logger: Logger,
        report: @escaping (ShowStatus) -> Void
    ) {
        self.pace = pace
        self.clock = clock
        self.followAudio = followAudio
        self.analyzer = analyzer
        self.inbox = inbox
        self.player = player
        self.logger = logger
        self.report = report
        framesPerSecond = max(1, options.framesPerSecond)
        frameInterval = .seconds(1 / framesPerSecond)
        audioLimit = options.audioLimitSeconds.map { seconds in
            Int64(saturating: (max(0, seconds) * Double(max(1, sampleRate))).rounded())
        }
        fadeOutTail = options.fadeOutTail
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

    /// The input has started: the first state change.
    mutating func begin() {
        apply(machine.inputStarted())
    }

    /// The input is over: stop, end any timer, and for a recording emit the fade-out from the end of the audio up
    /// to the dark frame, one frame interval apart.
    mutating func finish(_ output: SinkFanOut) throws {
        try releaseHeldBlocks(output)
        apply(machine.inputEnded())
        timerTask?.cancel()
        (timerDeadline, timerTask) = (nil, nil)
        refreshDeadline = nil
        guard fadeOutTail else { return }
        let (startSeconds, startTime) = (showSeconds, lastAudioTime + skippedSeconds)
        var step = 0
        var seconds: Double
        repeat {
            // The stop at the audio's end, then one frame per interval; multiples rather than sums, so the fade's
            // end lands on a frame exactly.
            seconds = startSeconds + Double(step) / framesPerSecond
            try emit(time: startTime + Double(step) / framesPerSecond, live: nil, at: seconds, output)
            step += 1
        } while !effects.isDark(at: seconds)
    }

    /// Everything but the audio: commands, the now-playing source, reloads, timers.
    mutating func handle(_ event: ShowEvent, _ output: SinkFanOut) throws {
        let before = (state: machine.state, title: nowPlaying.title)
        defer {
            armTimer()
            updatePace()
        }
        switch event {
        case .player(.status(let status)):
            let previousTitle = nowPlaying.title
            nowPlaying.update(status, at: showSeconds)
            if nowPlaying.title != previousTitle { logger.info("title: \(nowPlaying.title)") }
            apply(machine.player(status.state))
            askForRefresh()
        case .player(.lost):
            nowPlaying.update(nil, at: showSeconds)
            apply(machine.playerLost())
            askForRefresh()
        case .user(let command):
            let resolved = command.resolved(from: machine.state)
            apply(machine.user(command))
            // The player follows the user; its report then confirms the state shown at once here.
            if machine.isPlayerConnected, nowPlaying.playerAcceptsCommands { player?.forward(resolved) }
        case .reconfigure(let configuration):
            analyzer.reconfigure(analysis: configuration.analysis, bands: configuration.bands)
            silenceThresholdDBFS = configuration.analysis.silenceThresholdDBFS
            machine.adopt(configuration.playback)
            effects.adopt(configuration.playback)
        case .timer:
            (timerDeadline, timerTask) = (nil, nil)
            apply(machine.timeoutTriggered())
            try refreshIfStalled(output)
        }
        // On a live input, a change shows at once (a key press, the player), not with the next analysis frame.
        if isLive && (machine.state != before.state || nowPlaying.title != before.title) {
            try emit(time: lastAudioTime, live: nil, output)
        }
    }

    /// One block of audio, on the source's reader thread. Returns false once the audio limit is reached.
    mutating func handle(_ block: SampleBlock, _ output: SinkFanOut) throws -> Bool {
        var block = block
        var wantsMore = true
        if let audioLimit {
            let room = audioLimit - consumedFrames
            if Int64(block.frameCount) >= room {
                wantsMore = false
                if Int64(block.frameCount) > room { block = block.prefix(frames: Int(max(0, room))) }
            }
        }
        consumedFrames += Int64(block.frameCount)
        if wantsMore && holds(block) { return true }
        try releaseHeldBlocks(output)
        try output.audio(block)
        lastAudioTime = block.endTime
        // Asleep: only a cheap level check, and only when sound could wake the show. A block that passes it goes
        // on to the analysis, whose gate decides as it does awake: a noise floor the gate calls silence must not
        // wake a show that would only idle out again.
        if isAsleep && !(machine.wakesOnSound && block.isLouder(thanDBFS: silenceThresholdDBFS)) {
            skippedSeconds += Double(block.frameCount) / Double(block.sampleRate)
            return wantsMore
        }
        for frame in analyzer.process(block) {
            let time = frame.time + skippedSeconds
            followAudio?(time)
            apply(machine.audio(hasSound: frame.hasSound))
            try emit(time: time, live: frame.levels, output)
        }
        armTimer()
        updatePace()
        return wantsMore
    }

    /// Keeps a live block that completes no hop for the one that does: it would make no frame, so taking it in
    /// now costs a pass through the engine (whose code and data a reader's wake-up finds cold) for nothing. A
    /// pipe's writer often sends less than a hop (MPD and the benchmarks write 10 ms, a hop at 60 fps is 16.7);
    /// frames come out exactly as before, at the same moment. Asleep, every block gets its level check at once.
    private mutating func holds(_ block: SampleBlock) -> Bool {
        guard isLive, !isAsleep, heldBlocks.count < 16,
              !analyzer.completesHop(frames: heldFrames + block.frameCount) else { return false }
        heldBlocks.append(block)
        heldFrames += block.frameCount
        return true
    }

    /// Takes in the held blocks (in order, before the block that completes their hop, or at the end of input).
    private mutating func releaseHeldBlocks(_ output: SinkFanOut) throws {
        guard !heldBlocks.isEmpty else { return }
        for block in heldBlocks {
            try output.audio(block)
            _ = analyzer.process(block)
            lastAudioTime = block.endTime
        }
        heldBlocks.removeAll(keepingCapacity: true)
        heldFrames = 0
    }

    /// Tells the reader whether the show sleeps. Falling asleep ends start-up too, when it comes before two seconds
    /// of frames did.
    private func updatePace() {
        pace?.set(asleep: isAsleep)
        if isAsleep { ResidentCode.releaseStartupPages() }
    }

    /// Draws one frame, unless the show is already dark and the dark frame went out. `seconds` is the show time
    /// of the frame: now, except in a recording's fade-out tail.
    private mutating func emit(time: Double, live: BandLevels?, at seconds: Double? = nil, _ output: SinkFanOut) throws {
        let seconds = seconds ?? showSeconds
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
        try output.show(frame)
        // Two seconds into the show, start-up is over: its code needn't stay resident.
        if frameIndex == Int(2 * framesPerSecond) { ResidentCode.releaseStartupPages() }
    }

    /// Applies what the machine decided: logs the change once, with its reason, and starts its effect.
    private mutating func apply(_ action: PlaybackStateMachine<C>.Action) {
        if let state = action.newState, let reason = action.reason {
            if case .player(let reported) = reason, let player {
                logger.info("\(state.rawValue): \(player.name) reports \(reported.rawValue)")
            } else {
                logger.info("\(state.rawValue): \(reason)")
            }
            effects.enter(state, at: showSeconds)
            sentDarkFrame = false
            askForRefresh()
        }
        report(ShowStatus(
            state: machine.state, reason: machine.reason, title: nowPlaying.title, playerConnected: machine.isPlayerConnected
        ))
    }

    /// On a live input, makes sure the screen shows a change within two frames even if no audio arrives.
    private mutating func askForRefresh() {
        guard isLive, !isAsleep else { return }
        refreshDeadline = clock.now.advanced(by: frameInterval * 2)
    }

    private mutating func refreshIfStalled(_ output: SinkFanOut) throws {
        guard let due = refreshDeadline, due <= clock.now else { return }
        refreshDeadline = nil
        let stalled = lastEmit.map { $0.duration(to: clock.now) >= frameInterval * 1.5 } ?? true
        if stalled {
            try emit(time: lastAudioTime, live: nil, output)
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
        if let timerDeadline, timerDeadline <= wanted { return }
        timerTask?.cancel()
        let clock = clock, inbox = inbox
        timerDeadline = wanted
        timerTask = Task {
            do {
                try await clock.sleep(until: wanted, tolerance: nil)
                inbox.yield(.timer)
            } catch {}
        }
    }
}
