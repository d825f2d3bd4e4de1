public import LightShowSystem
import Synchronization

/// What the consumer tells a live source's reader about its appetite: while the show sleeps (stopped and dark),
/// every block gets only a level check, so a reader that wakes for each 10 ms write of silence costs more than the
/// show itself. Asleep, the reader naps between reads and takes what piled up in the pipe meanwhile; waking the
/// show (sound in a nap's backlog, or a command) ends the nap at once.
public final class ReaderPace: Sendable {
    /// The longest nap: the watchdog and a late sound may wait this long, and a pipe must hold this much audio
    /// with room to spare so the writer never blocks on us.
    public static let longestNap: Duration = .milliseconds(250)

    private let asleep = Atomic<Bool>(false)
    private let awoken: WakeSignal

    public init() throws(SystemCallError) {
        awoken = try WakeSignal()
    }

    /// Set by the consumer when its show falls asleep or wakes.
    public func set(asleep newValue: Bool) {
        guard asleep.exchange(newValue, ordering: .relaxed) != newValue else { return }
        if newValue { awoken.consume() } else { awoken.signal() }
    }

    /// Ends a nap at once without waking the consumer's show: the reader is asked to stop.
    public func interrupt() {
        set(asleep: false)
    }

    public var isAsleep: Bool { asleep.load(ordering: .relaxed) }

    /// On the reader thread: while the consumer sleeps, waits up to `limit` (at most `longestNap`) or until the
    /// consumer wakes or the reader is interrupted. True when it napped (whatever piled up meanwhile should be
    /// read now, without waiting for input).
    public func napIfAsleep(upTo limit: Duration) -> Bool {
        guard isAsleep else { return false }
        _ = awoken.wait(for: min(limit, Self.longestNap))
        return true
    }
}
