/// Health of a source, for status output and the daemon's watchdog.
public struct CaptureStatistics: Sendable, Equatable {
    /// Whether the source currently delivers audio from its input.
    public enum State: String, Sendable, Equatable {
        case starting, running, lost, finished
    }

    public var state: State = .starting
    /// Overruns (-EPIPE): the reader fell behind and the device dropped audio.
    public var overruns = 0
    /// Faults that `snd_pcm_recover` cleared without reopening (overrun, suspend, interrupted call).
    public var recoveries = 0
    /// Times the device was lost and closed.
    public var losses = 0
    /// Times a lost device was opened again and capture resumed.
    public var reopens = 0
    /// Frames of real audio delivered (not counting silence filled in while the device was lost).
    public var framesDelivered: Int64 = 0
    /// `CLOCK_MONOTONIC` nanoseconds when real audio last arrived; nil before the first. The watchdog's pulse.
    public var lastProgressNanoseconds: UInt64?
    /// `CLOCK_MONOTONIC` nanoseconds when the reader loop last went round, audio or not: a loop waiting on a silent
    /// fifo (a paused MPD) is alive, one blocked in a system call is not. Nil for sources that don't report it.
    public var lastAliveNanoseconds: UInt64?

    /// No audio for longer than this makes an open input silent (a paused player, a quiet fifo).
    public static let silentAfterNanoseconds: UInt64 = 1_000_000_000

    /// Whether the input is alive but has had no audio for longer than `silentAfterNanoseconds`, for status.
    public func isSilent(now: UInt64) -> Bool {
        guard state != .lost, state != .finished, let alive = lastAliveNanoseconds, now >= alive else { return false }
        let quietSince = lastProgressNanoseconds ?? 0
        return now > quietSince && now - quietSince > Self.silentAfterNanoseconds
    }

    /// What status shows of the capture at `now`, without the counters every block moves: a change here is worth
    /// telling.
    struct Reported: Equatable {
        var state: State
        var overruns: Int
        var recoveries: Int
        var losses: Int
        var reopens: Int
        var isSilent: Bool
    }

    func reported(at now: UInt64) -> Reported {
        Reported(
            state: state, overruns: overruns, recoveries: recoveries, losses: losses, reopens: reopens,
            isSilent: isSilent(now: now)
        )
    }

    public init() {}
}
