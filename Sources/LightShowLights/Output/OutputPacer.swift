/// When one output sends, as a pure step over monotonic time (nanoseconds), so tests drive it with made-up clocks.
///
/// - New data goes out as soon as the rate allows, paced like a cell-rate limiter (GCRA): each send moves a
///   theoretical time forward by one period, and a send may happen up to a quarter period before it. A feeder
///   faster than the output gets sends exactly one period apart, on absolute deadlines, so the rate never drifts;
///   a feeder at the same rate (the engine at 60 fps, DDP at 60) gets its frames out the moment they arrive,
///   whatever the phase between the two clocks, rather than each waiting for a grid point.
/// - Unchanged data is sent again about once a second, well inside the 2.5 s after which E1.31 receivers
///   (and WLED's realtime mode) declare the source lost.
/// - At the end of a show (the stop's dark frame, shutdown, a removed output) black goes out a few times at the
///   frame rate, then the stream ends (`terminate`: sACN's stream-terminated packets) and nothing is sent, and no
///   deadline is kept, until there is something to show again. An output that never lit anything sends nothing.
struct OutputPacer: Sendable {
    enum Step: Equatable {
        case send
        case terminate
        /// Nothing to do before `until` (nil: nothing at all until new input).
        case wait(until: UInt64?)
    }

    let period: UInt64
    /// How early before its theoretical time a send may go (a quarter period).
    let tolerance: UInt64
    let keepAlive: UInt64
    /// Black packets sent at the end before the stream ends (UDP may lose one).
    let blackRepeats: Int
    /// A steady stream (`steadyStep`) rather than one paced by changes.
    let steady: Bool

    private(set) var isLive = false
    /// The theoretical time of the next send: one period after the previous one's (or after now, if later).
    private var theoretical: UInt64 = 0
    private var lastSent: UInt64 = 0
    private var sent: [UInt8]?
    private var blackSent = 0

    init(framesPerSecond: Double, keepAlive: UInt64 = 1_000_000_000, blackRepeats: Int = 3, steady: Bool = false) {
        let rate = framesPerSecond.isFinite ? min(1000, max(0.1, framesPerSecond)) : 1
        period = UInt64((1e9 / rate).rounded())
        tolerance = period / 4
        self.keepAlive = keepAlive
        self.blackRepeats = blackRepeats
        self.steady = steady
    }

    /// A pacer at this one's rate that carries on from `previous` (a reload that keeps the stream).
    func continuing(_ previous: OutputPacer) -> OutputPacer {
        var copy = self
        copy.isLive = previous.isLive
        copy.theoretical = previous.theoretical
        copy.lastSent = previous.lastSent
        copy.sent = previous.sent
        copy.blackSent = previous.blackSent
        return copy
    }

    /// What to do at `now` for `payload`, the bytes the output should show; `ending` says they are the black of
    /// an end. `arrival` is when the data behind the payload arrived (nil: now): pacing counts from there, so a
    /// sender thread that wakes late once doesn't push every later frame late too. `urgent` new data (a beat) goes
    /// out at once on a steady stream. After `.send` or `.terminate` the caller acts, then asks again until it gets
    /// `.wait`.
    mutating func step(now: UInt64, payload: [UInt8], ending: Bool, arrival: UInt64? = nil, urgent: Bool = false) -> Step {
        let allowed = theoretical > tolerance ? theoretical - tolerance : 0
        guard isLive else {
            if ending { return .wait(until: nil) }
            // Lit again right after an end: still no faster than the rate.
            guard now >= allowed else { return .wait(until: allowed) }
            isLive = true
            record(payload, at: now, arrival: arrival, ending: false)
            return .send
        }
        let changed = payload != sent
        if ending, !changed, blackSent >= blackRepeats {
            isLive = false
            sent = nil
            blackSent = 0
            return .terminate
        }
        if steady { return steadyStep(now: now, payload: payload, changed: changed, ending: ending, urgent: urgent) }
        let due = changed || ending ? allowed : max(allowed, lastSent &+ keepAlive)
        guard now >= due else { return .wait(until: due) }
        record(payload, at: now, arrival: changed ? arrival : nil, ending: ending)
        return .send
    }

    /// A packet every period on a fixed grid, changed or not, with the newest data (WLED audio sync: receivers
    /// expect a steady stream); an urgent change goes out at once, and takes the grid's place when that is less
    /// than half a period away. A late turn catches up by at most half a period, so a stall gives one extra
    /// packet rather than a burst.
    private mutating func steadyStep(now: UInt64, payload: [UInt8], changed: Bool, ending: Bool, urgent: Bool) -> Step {
        if !(urgent && changed) {
            guard now >= theoretical else { return .wait(until: theoretical) }
            theoretical = max(theoretical &+ period, now &- period / 2)
        } else if now &+ period / 2 >= theoretical {
            theoretical = max(theoretical &+ period, now &- period / 2)
        }
        lastSent = now
        blackSent = ending ? (payload == sent ? blackSent + 1 : 1) : 0
        sent = payload
        return .send
    }

    private mutating func record(_ payload: [UInt8], at now: UInt64, arrival: UInt64?, ending: Bool) {
        theoretical = max(theoretical, min(now, arrival ?? now)) &+ period
        lastSent = now
        blackSent = ending ? (payload == sent ? blackSent + 1 : 1) : 0
        sent = payload
    }
}
