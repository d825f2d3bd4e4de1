import HummingbirdWebSocket
import LightShowControl
import LightShowCore
import NIOCore
import Synchronization

/// One WebSocket viewer of `/api/frames`: the scene, then the newest frame at most `framesPerSecond` a second, each
/// event a text message exactly as control-socket subscribers get it. Sending waits for this viewer alone (the
/// channel's backpressure), so a slow viewer skips frames, never queues them, and holds no one else back; one that
/// takes nothing for `stallSeconds` is closed.
struct FrameViewer {
    let events: ShowEventBoard
    let framesPerSecond: Double
    let stallSeconds: Double
    /// The viewer's connection: its event loop times the pacing, and it is closed when the viewer stalls.
    let channel: any Channel

    func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
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
                try await send(outbound: outbound, bells: bells, bell: bell, writing: writing)
            }
            group.addTask {
                try await watchForStall(writing)
                // Its write waits for a window that never opens, and so would the close handshake after it: only
                // closing the connection ends them.
                channel.close(promise: nil)
            }
            // The first to end (the viewer left, a write failed, a stall) ends the others.
            _ = try await group.next()
            group.cancelAll()
        }
    }

    private func send(
        outbound: WebSocketOutboundWriter, bells: AsyncStream<Void>, bell: AsyncStream<Void>.Continuation,
        writing: WriteStart
    ) async throws {
        var pacer = ShowEventPacer(framesPerSecond: framesPerSecond, now: MonotonicClock.seconds())
        var rings = bells.makeAsyncIterator()
        // The due time a ring is scheduled for: one per frame slot, however many frames come before it.
        var ringScheduledFor: Double?
        while !Task.isCancelled {
            for line in pacer.take(events.latest, now: MonotonicClock.seconds()) {
                writing.milliseconds.store(Int64(saturating: MonotonicClock.seconds() * 1000) | 1, ordering: .relaxed)
                try await outbound.write(.text(String(decoding: line.dropLast(), as: UTF8.self)))
                writing.milliseconds.store(0, ordering: .relaxed)
            }
            if let wait = pacer.wait(for: events.latest, now: MonotonicClock.seconds()) {
                if wait == 0 { continue }
                // A frame waits for its time: the connection's event loop rings then, unless a newer frame rings
                // first. A timer on the loop costs far less than a sleeping task's: with 100 viewers at 30 fps the
                // daemon's CPU fell from 28% to 18% of a core (Tests/Benchmarks/web.sh).
                if ringScheduledFor != pacer.nextDue {
                    ringScheduledFor = pacer.nextDue
                    channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(saturating: wait * 1e9))) { bell.yield() }
                }
            }
            if await rings.next() == nil { return }
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
