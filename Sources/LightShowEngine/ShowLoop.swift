import LightShowCore
import LightShowNowPlaying

/// Everything the engine hears about besides the audio.
enum ShowEvent: Sendable {
    case player(NowPlayingEvent)
    case user(UserCommand)
    /// A reloaded configuration: bands, analysis, accents and playback settings.
    case reconfigure(Configuration)
    /// A deadline the loop asked for: idle_after, or a refresh while the source is stalled.
    case timer
}

/// The engine's state as a value: the playback machine, the effects, the analyser, and the frame counter. Each
/// input (the start, a block, an event, the end) updates it and appends what must happen to `actions`, which the
/// engine performs after letting go of its lock: the loop itself touches no sink, timer, player or reader.
/// Live inputs run on the engine's clock; offline ones on a clock that follows the audio timeline, so a file gives
/// the same show however fast it is read.
struct ShowLoop<C: Clock> where C.Duration == Duration {
    /// What the engine must do, in order.
    enum Action: Sendable {
        /// Hand a block of audio to every sink.
        case audio(SampleBlock)
        /// Hand a frame to every sink; `capturedAt` is the monotonic capture time of the newest sample it analysed
        /// (nil: a frame made without analysis, or offline input), for the latency metric.
        case frame(ShowFrame, capturedAt: UInt64?)
        /// Tell the sinks that the input just handled made its frames.
        case framesDone
        /// Wake the loop with `.timer` at this instant, replacing the timer armed before.
        case armTimer(C.Instant)
        case cancelTimer
        /// Pass the user's command on to the now-playing source.
        case forward(UserCommand)
        /// The state, its reason or the title changed.
        case report(ShowStatus)
        /// Tell a live reader whether the show sleeps.
        case pace(asleep: Bool)
        /// Start-up is over: its code needn't stay resident.
        case releaseStartupPages
        case log(String)
    }

    let clock: C
    /// Offline only: moves the clock to an audio time (seconds).
    let followAudio: ((Double) -> Void)?
    let analyzer: any BlockAnalyzer
    /// The now-playing source's name (MPD, an MPRIS player), if there is one.
    let playerName: String?
    /// Whether a sink takes the audio: without one, a block decides no `.audio` and, asleep, nothing at all.
    let passesAudio: Bool
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
    /// When the armed timer fires, if one is armed.
    private var timerDeadline: C.Instant?
    /// What was last reported and told to the reader, so each goes out only when it changes.
    private var reported: ShowStatus?
    private var pacedAsleep: Bool?
    /// Live audio that completes no hop yet, waiting for the block that does (see `holds(_:)`).
    private var heldBlocks: [SampleBlock] = []
    private var heldFrames = 0

    init(
        clock: C, followAudio: ((Double) -> Void)?, analyzer: any BlockAnalyzer, spec: InputSpec, sampleRate: Int,
        configuration: Configuration, options: ShowEngine.Options, playerName: String?, passesAudio: Bool
    ) {
        self.clock = clock
        self.followAudio = followAudio
        self.analyzer = analyzer
        self.playerName = playerName
        self.passesAudio = passesAudio
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
    mutating func begin(_ actions: inout [Action]) {
        apply(machine.inputStarted(), &actions)
    }

    /// The input is over: stop, end any timer, and for a recording emit the fade-out from the end of the audio up
    /// to the dark frame, one frame interval apart.
    mutating func finish(_ actions: inout [Action]) {
        let before = frameIndex
        defer { if frameIndex != before { actions.append(.framesDone) } }
        releaseHeldBlocks(&actions)
        apply(machine.inputEnded(), &actions)
        if timerDeadline != nil { actions.append(.cancelTimer) }
        timerDeadline = nil
        refreshDeadline = nil
        guard fadeOutTail else { return }
        let (startSeconds, startTime) = (showSeconds, lastAudioTime + skippedSeconds)
        var step = 0
        var seconds: Double
        repeat {
            // The stop at the audio's end, then one frame per interval; multiples rather than sums, so the fade's
            // end lands on a frame exactly.
            seconds = startSeconds + Double(step) / framesPerSecond
            emit(time: startTime + Double(step) / framesPerSecond, live: nil, at: seconds, &actions)
            step += 1
        } while !effects.isDark(at: seconds)
    }

    /// Everything but the audio: commands, the now-playing source, reloads, timers.
    mutating func handle(_ event: ShowEvent, _ actions: inout [Action]) {
        let before = (state: machine.state, title: nowPlaying.title, frames: frameIndex)
        defer {
            armTimer(&actions)
            updatePace(&actions)
            if frameIndex != before.frames { actions.append(.framesDone) }
        }
        switch event {
        case .player(.status(let status)):
            let previousTitle = nowPlaying.title
            nowPlaying.update(status, at: showSeconds)
            if nowPlaying.title != previousTitle { actions.append(.log("title: \(nowPlaying.title)")) }
            apply(machine.player(status.state), &actions)
            askForRefresh()
        case .player(.lost):
            nowPlaying.update(nil, at: showSeconds)
            apply(machine.playerLost(), &actions)
            askForRefresh()
        case .user(let command):
            let resolved = command.resolved(from: machine.state)
            apply(machine.user(command), &actions)
            // The player follows the user; its report then confirms the state shown at once here.
            if machine.isPlayerConnected, nowPlaying.playerAcceptsCommands, playerName != nil {
                actions.append(.forward(resolved))
            }
        case .reconfigure(let configuration):
            analyzer.reconfigure(configuration)
            silenceThresholdDBFS = configuration.analysis.silenceThresholdDBFS
            machine.adopt(configuration.playback)
            effects.adopt(configuration.playback)
        case .timer:
            timerDeadline = nil
            apply(machine.timeoutTriggered(), &actions)
            refreshIfStalled(&actions)
        }
        // On a live input, a change shows at once (a key press, the player), not with the next analysis frame.
        if isLive && (machine.state != before.state || nowPlaying.title != before.title) {
            emit(time: lastAudioTime, live: nil, &actions)
        }
    }

    /// One block of audio, on the source's reader thread. Returns false once the audio limit is reached.
    mutating func handle(_ block: SampleBlock, _ actions: inout [Action]) -> Bool {
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
        let before = frameIndex
        defer { if frameIndex != before { actions.append(.framesDone) } }
        releaseHeldBlocks(&actions)
        if passesAudio { actions.append(.audio(block)) }
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
            apply(machine.audio(hasSound: frame.hasSound), &actions)
            emit(time: time, live: frame.levels, analysis: frame, &actions)
        }
        armTimer(&actions)
        updatePace(&actions)
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
    private mutating func releaseHeldBlocks(_ actions: inout [Action]) {
        guard !heldBlocks.isEmpty else { return }
        for block in heldBlocks {
            if passesAudio { actions.append(.audio(block)) }
            _ = analyzer.process(block)
            lastAudioTime = block.endTime
        }
        heldBlocks.removeAll(keepingCapacity: true)
        heldFrames = 0
    }

    /// Tells the reader whether the show sleeps, when that changes. Falling asleep ends start-up too, when it comes
    /// before two seconds of frames did.
    private mutating func updatePace(_ actions: inout [Action]) {
        let asleep = isAsleep
        guard asleep != pacedAsleep else { return }
        pacedAsleep = asleep
        actions.append(.pace(asleep: asleep))
        if asleep { actions.append(.releaseStartupPages) }
    }

    /// Draws one frame, unless the show is already dark and the dark frame went out. `seconds` is the show time
    /// of the frame: now, except in a recording's fade-out tail.
    private mutating func emit(
        time: Double, live: BandLevels?, analysis: AnalysisFrame? = nil, at seconds: Double? = nil, _ actions: inout [Action]
    ) {
        let seconds = seconds ?? showSeconds
        let dark = isLive && machine.state == .stopped && effects.isDark(at: seconds)
        if dark && sentDarkFrame { return }
        sentDarkFrame = dark
        var frame = ShowFrame(
            index: frameIndex,
            time: time,
            levels: effects.levels(live: live, at: seconds),
            state: machine.state,
            title: nowPlaying.title,
            elapsed: machine.state == .stopped ? nil : nowPlaying.elapsed(at: seconds, audioTime: time)
        )
        if let analysis {
            (frame.envelope, frame.accent, frame.onsets) = (analysis.envelope, analysis.accent, analysis.onsets)
            frame.spectrum = analysis.spectrum
        }
        frameIndex += 1
        lastEmit = clock.now
        actions.append(.frame(frame, capturedAt: analysis?.captureTimeNanoseconds))
        // Two seconds into the show, start-up is over: its code needn't stay resident.
        if frameIndex == Int(2 * framesPerSecond) { actions.append(.releaseStartupPages) }
    }

    /// Applies what the machine decided: logs the change once, with its reason, starts its effect, and reports
    /// the status when it changed.
    private mutating func apply(_ action: PlaybackStateMachine<C>.Action, _ actions: inout [Action]) {
        if let state = action.newState, let reason = action.reason {
            if case .player(let reported) = reason, let playerName {
                actions.append(.log("\(state.rawValue): \(playerName) reports \(reported.rawValue)"))
            } else {
                actions.append(.log("\(state.rawValue): \(reason)"))
            }
            effects.enter(state, at: showSeconds)
            sentDarkFrame = false
            askForRefresh()
        }
        let status = ShowStatus(
            state: machine.state, reason: machine.reason, title: nowPlaying.title, playerConnected: machine.isPlayerConnected
        )
        guard status != reported else { return }
        reported = status
        actions.append(.report(status))
    }

    /// On a live input, makes sure the screen shows a change within two frames even if no audio arrives.
    private mutating func askForRefresh() {
        guard isLive, !isAsleep else { return }
        refreshDeadline = clock.now.advanced(by: frameInterval * 2)
    }

    private mutating func refreshIfStalled(_ actions: inout [Action]) {
        guard let due = refreshDeadline, due <= clock.now else { return }
        refreshDeadline = nil
        let stalled = lastEmit.map { $0.duration(to: clock.now) >= frameInterval * 1.5 } ?? true
        if stalled {
            emit(time: lastAudioTime, live: nil, &actions)
        }
        // Keep a stalled fade moving until the lights are out.
        if machine.state == .stopped && !sentDarkFrame {
            refreshDeadline = clock.now.advanced(by: frameInterval)
        }
    }

    /// Keeps one timer for the nearest deadline (live only). Nothing is armed while asleep: nothing polls.
    private mutating func armTimer(_ actions: inout [Action]) {
        guard isLive else { return }
        // Runs after every block: no array for two optionals.
        let wanted: C.Instant
        switch (machine.idleDeadline, refreshDeadline) {
        case let (idle?, refresh?): wanted = min(idle, refresh)
        case let (deadline?, nil), let (nil, deadline?): wanted = deadline
        case (nil, nil): return
        }
        if let timerDeadline, timerDeadline <= wanted { return }
        timerDeadline = wanted
        actions.append(.armTimer(wanted))
    }
}
