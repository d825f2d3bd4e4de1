import LightShowSystem
import LightShowCore
#if canImport(Glibc)
import Glibc
#endif
import Logging

/// The capture thread's work for `--input pulse`: keep a connection to the sound server, record what should be
/// recorded (the default sink's monitor, or the named source), follow changes, and hand the audio on.
///
/// Everything libpulse reports arrives through the `PulseInbox`, so this one thread makes every decision; the
/// mainloop thread only reads fragments and posts events.
struct PulseCaptureLoop: Sendable {
    /// Quiet time after a server event before resolving again: changes come in bursts, "No such entity" is
    /// transient, and pipewire-pulse briefly makes `auto_null` the default after a restart.
    static let debounce: UInt64 = 150_000_000
    /// No stream and no audio for this long (a lost server, nothing to record): silence is filled in so the show
    /// fades to idle. A connected stream is trusted to deliver: some sources send in bursts (PulseAudio's sine
    /// source every 2 s), and filling their gaps would stretch the audio timeline.
    static let silenceAfter: UInt64 = 100_000_000
    static let fillStep: UInt64 = 20_000_000
    /// How long a lookup may go unanswered before it is asked again.
    static let resolveTimeout: UInt64 = 2_000_000_000
    /// Longest wait between checks that the consumer is still there.
    static let cancelCheck: UInt64 = 50_000_000

    let spec: InputSpec
    let explicitSource: String?
    /// The server's address; nil = libpulse's default.
    var server: String?
    let sampleRate: Int
    let channels: Int
    let inbox: PulseInbox
    let recorder: StatisticsRecorder
    let logger: Logger

    var connection: PulseConnection?
    var stream: PulseStream?
    var streamCount = 0
    var contextReady = false
    var resolving: UInt64?
    var resolveAt: UInt64?
    var reconnectAt: UInt64?
    var backoff = ReopenBackoff()
    var failedAttempts = 0
    /// Why the server is away, while it is (for the one line when it returns).
    var serverLost: String?
    var unresolvedAnnounced = false
    /// What happened while opening, for the caller to decide how to fail.
    var lastFailure: String?
    var lastUnresolved: String?
    var unknownSource = false
    var sink: BlockSink?
    var stopped = false
    /// Smooths the joins where one stream replaces another.
    var splice: StreamSplice
    private var position: Int64 = 0
    private var lastAudioAt = MonotonicClock.now()
    private var nextFill: UInt64 = 0

    init(spec: InputSpec, explicitSource: String?, sampleRate: Int, channels: Int, inbox: PulseInbox,
         recorder: StatisticsRecorder, logger: Logger) {
        self.spec = spec
        self.explicitSource = explicitSource
        self.sampleRate = sampleRate
        self.channels = channels
        self.inbox = inbox
        self.recorder = recorder
        self.logger = logger
        splice = StreamSplice(channels: channels, rampFrames: sampleRate / 200)
    }

    /// Runs until the consumer leaves, then closes the stream and the connection.
    mutating func run(into sink: BlockSink) {
        self.sink = sink
        lastAudioAt = MonotonicClock.now()
        while !stopped, !sink.isCancelled() {
            step(until: nil)
        }
        stream = nil
        connection = nil
        recorder.update { $0.state = .finished }
        sink.finish(nil)
    }

    /// While opening: steps until there is something to record, the source is unknown, the server failed or
    /// there is nothing to record yet, or `seconds` pass.
    mutating func settle(within seconds: Double) {
        let deadline = MonotonicClock.now() + UInt64(seconds * 1e9)
        while MonotonicClock.now() < deadline {
            if stream != nil || unknownSource || lastUnresolved != nil || (lastFailure != nil && connection == nil) { return }
            step(until: deadline)
        }
    }

    /// One wait for news or the next deadline, then acts on what came.
    mutating func step(until deadline: UInt64?) {
        let now = MonotonicClock.now()
        var wakeAt = now + Self.cancelCheck
        let fillAt = sink == nil || stream != nil ? nil : max(nextFill, lastAudioAt + Self.silenceAfter)
        for candidate in [deadline, resolveDue, connection == nil ? reconnectAt : nil, fillAt] {
            if let candidate { wakeAt = min(wakeAt, candidate) }
        }
        var descriptor = pollfd(fd: inbox.wake.readFD, events: Int16(POLLIN), revents: 0)
        _ = Poll.wait(&descriptor, count: 1, timeout: .nanoseconds(Int64(clamping: wakeAt > now ? wakeAt - now : 0)))
        for event in inbox.takeEvents() { handle(event) }
        runTimers()
        if sink != nil { deliverAudio() }
        // The loop's pulse for the daemon's watchdog: it goes round at least every `cancelCheck`, and a stream
        // that stays connected but brings nothing (a suspended sink) is the server's doing, not a hung reader.
        recorder.alive()
    }

    /// When `runTimers` will next act on resolving: the lookup asked for, once one can start, or the time-out of
    /// the one in flight. A lookup that can't start yet must not set the wait, or a due one would make it zero.
    private var resolveDue: UInt64? {
        if let since = resolving { return since + Self.resolveTimeout }
        return connection != nil && contextReady ? resolveAt : nil
    }

    /// Connects now; a context that can't even be created counts as a failed connection.
    mutating func connect() {
        contextReady = false
        do {
            connection = try PulseConnection(inbox: inbox, server: server)
        } catch {
            handle(.failed(error.message))
        }
    }

    private mutating func runTimers() {
        let now = MonotonicClock.now()
        if connection == nil, let at = reconnectAt, now >= at {
            reconnectAt = nil
            connect()
        }
        // A lookup that never answered (it should, or the context fails) is asked again.
        if let since = resolving, now - min(since, now) >= Self.resolveTimeout {
            resolving = nil
            resolveAt = resolveAt ?? now
        }
        if let connection, contextReady, resolving == nil, let at = resolveAt, now >= at {
            resolveAt = nil
            resolving = now
            connection.resolve(source: explicitSource)
        }
    }

    /// Hands on what arrived; after a while without audio, silence in real time instead.
    private mutating func deliverAudio() {
        guard let sink else { return }
        let audio = inbox.takeAudio()
        let now = MonotonicClock.now()
        let samples: [Float]
        let captureTime: UInt64
        if !audio.samples.isEmpty {
            samples = splice.splice(audio.samples)
            captureTime = audio.arrivedAt
            lastAudioAt = audio.arrivedAt
            recorder.progressed(frames: samples.count / channels, at: now)
        } else if stream == nil, now >= lastAudioAt + Self.silenceAfter, now >= nextFill {
            nextFill = max(nextFill + Self.fillStep, now - Self.fillStep)
            samples = splice.splice([Float](repeating: 0, count: sampleRate / 50 * channels))
            captureTime = now
        } else {
            return
        }
        let block = SampleBlock(samples: samples, channels: channels, sampleRate: sampleRate,
                                startFrame: position, captureTimeNanoseconds: captureTime)
        position += Int64(block.frameCount)
        if !sink.deliver(block) { stopped = true }
    }
}
