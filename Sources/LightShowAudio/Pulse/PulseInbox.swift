import LightShowSystem
import LightShowCore

/// Where the mainloop thread leaves events and captured samples for the capture thread, and rings its wake-up pipe.
final class PulseInbox: Sendable {
    /// Captured audio waiting for the capture thread, with the time the newest sample arrived.
    struct Audio: Sendable {
        var samples: [Float] = []
        var arrivedAt: UInt64 = 0
    }

    let wake: WakeSignal
    private let events = Locked<[PulseEvent]>([])
    private let audio = Locked(Audio())
    /// Most samples held for a capture thread that is late: about 100 ms of stereo at 48 kHz, like the server's
    /// own maximum, so a stall never replays stale audio.
    private let maximumSamples: Int

    init(maximumSamples: Int) throws(SystemCallError) {
        wake = try WakeSignal()
        self.maximumSamples = maximumSamples
    }

    func post(_ event: PulseEvent) {
        events.withLock { queue in
            // A flood of server events is one change; keep the queue bounded whatever the server sends.
            if event == .changed, queue.last == .changed { return }
            if queue.count >= 256 { queue.removeFirst() }
            queue.append(event)
        }
        wake.signal()
    }

    /// Appends whole frames of captured audio, keeping only the newest `maximumSamples`.
    func append(_ samples: UnsafeBufferPointer<Float>, channels: Int) {
        let usable = samples.count - samples.count % channels
        guard usable > 0 else { return }
        audio.withLock { pending in
            pending.samples.append(contentsOf: samples.prefix(usable))
            if pending.samples.count > maximumSamples {
                let excess = pending.samples.count - maximumSamples
                pending.samples.removeFirst(excess + (channels - excess % channels) % channels)
            }
            pending.arrivedAt = MonotonicClock.now()
        }
        wake.signal()
    }

    /// Takes everything posted so far.
    func takeEvents() -> [PulseEvent] {
        wake.consume()
        return events.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
    }

    func takeAudio() -> Audio {
        audio.withLock { pending in
            defer { pending.samples.removeAll(keepingCapacity: true) }
            return pending
        }
    }

    /// Drops audio of a stream that has gone.
    func discardAudio() {
        audio.withLock { $0.samples.removeAll() }
    }
}
