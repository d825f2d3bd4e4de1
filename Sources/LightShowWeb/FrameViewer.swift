import HummingbirdWebSocket
import LightShowControl
import LightShowCore
import Synchronization

/// One WebSocket viewer of `/api/frames`: the scene, then the newest frame at most `framesPerSecond` a second, each
/// event a text message exactly as control-socket subscribers get it. Sending waits for this viewer alone (the
/// channel's backpressure), so a slow viewer skips frames, never queues them, and holds no one else back; one that
/// takes nothing for `stallSeconds` is closed.
struct FrameViewer {
    let events: ShowEventBoard
    let framesPerSecond: Double
    let stallSeconds: Double
    /// Counts this viewer while it watches, and the frames it drops.
    let tally: ViewerTally

    func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        tally.joined()
        defer { tally.left() }
        let (bells, bell) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let listener = events.listen { _ in bell.yield() }
        defer { events.stopListening(listener) }
        let writing = WriteStart()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // Messages from the viewer mean nothing here; reading them lets a close from its side end this.
                for try await _ in inbound {}
            }
            group.addTask {
                try await send(outbound: outbound, bells: bells, writing: writing)
            }
            group.addTask {
                try await watchForStall(writing)
            }
            // The first to end (the viewer left, a write failed, a stall) ends the others.
            _ = try await group.next()
            group.cancelAll()
        }
    }

    private func send(outbound: WebSocketOutboundWriter, bells: AsyncStream<Void>, writing: WriteStart) async throws {
        var pacer = ShowEventPacer(framesPerSecond: framesPerSecond, now: MonotonicClock.seconds())
        var rings = bells.makeAsyncIterator()
        while !Task.isCancelled {
            for line in pacer.take(events.latest, now: MonotonicClock.seconds()) {
                writing.milliseconds.store(Int64(saturating: MonotonicClock.seconds() * 1000) | 1, ordering: .relaxed)
                try await outbound.write(.text(String(decoding: line.dropLast(), as: UTF8.self)))
                writing.milliseconds.store(0, ordering: .relaxed)
            }
            tally.add(dropped: pacer.takeDropped())
            if let wait = pacer.wait(for: events.latest, now: MonotonicClock.seconds()) {
                if wait > 0 { try await Task.sleep(for: .nanoseconds(Int64(saturating: wait * 1e9))) }
            } else if await rings.next() == nil {
                return
            }
        }
    }

    private func watchForStall(_ writing: WriteStart) async throws {
        let limit = Int64(saturating: stallSeconds * 1000)
        while true {
            try await Task.sleep(for: .milliseconds(max(100, limit / 4)))
            let began = writing.milliseconds.load(ordering: .relaxed)
            if began != 0, Int64(saturating: MonotonicClock.seconds() * 1000) - began > limit { return }
        }
    }
}

/// When the write under way began, in milliseconds of the monotonic clock (0: none under way), for the stall check.
private final class WriteStart: Sendable {
    let milliseconds = Atomic<Int64>(0)
}
