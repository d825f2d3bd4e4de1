import Synchronization

/// A `ShowLoop` behind a lock, stepped directly by whoever has news: the source's reader thread with each block,
/// a timer's task, MPD's follower, a user's command. No event waits in a queue or wakes another task, so a live
/// block costs no context switch beyond the reader's own wake-up.
final class ShowDriver<C: Clock>: Sendable where C.Duration == Duration {
    private struct Slot {
        var loop: ShowLoop<C>
        /// Set once the show ended or failed: later events are ignored.
        var isOver = false
        /// What `onFrame` threw, ending the show.
        var failure: (any Error)?
        /// Stops the reader when the show fails off the reader thread (a timer's frame, say).
        var stopReading: (@Sendable () -> Void)?
    }

    private let slot: Mutex<Slot>

    init(_ loop: sending ShowLoop<C>) {
        slot = Mutex(Slot(loop: loop))
        let wake: @Sendable () -> Void = { [weak self] in self?.step(.timer) }
        slot.withLock { slot in
            slot.loop.wake = wake
            slot.loop.begin()
        }
    }

    /// Handles `event` now, on the caller's thread; false once the show is over (the reader should stop).
    @discardableResult
    func step(_ event: ShowEvent) -> Bool {
        let (goesOn, stop) = slot.withLock { slot -> (Bool, (@Sendable () -> Void)?) in
            guard !slot.isOver else { return (false, nil) }
            do {
                try slot.loop.step(event)
                return (true, nil)
            } catch {
                slot.failure = error
                slot.isOver = true
                slot.loop.stopTimer()
                return (false, slot.stopReading)
            }
        }
        stop?()
        return goesOn
    }

    /// Installs how to stop the reader; calls it at once if the show already failed.
    func onFailure(stopReading: @escaping @Sendable () -> Void) {
        let failed = slot.withLock { slot in
            slot.stopReading = stopReading
            return slot.failure != nil
        }
        if failed { stopReading() }
    }

    var isOver: Bool { slot.withLock { $0.isOver } }

    /// Whatever `onFrame` threw, if anything.
    var failure: (any Error)? { slot.withLock { $0.failure } }

    /// Ends the show: the input ended (`inputEnded` applies it to the machine) or the engine stops.
    func finish(inputEnded: Bool) {
        if inputEnded { step(.inputEnded) }
        slot.withLock { slot in
            slot.isOver = true
            slot.loop.stopTimer()
            slot.stopReading = nil
        }
    }
}
