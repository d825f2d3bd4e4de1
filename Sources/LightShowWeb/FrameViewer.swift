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
    /// Counts this viewer while it watches, and the frames it drops.
    let tally: ViewerTally
    /// The viewer's connection, closed when it stalls.
    let channel: any Channel

    func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        tally.joined()
        defer { tally.left() }
        let (bells, bell) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let due = DueTime()
        // Rung on the show's thread for every frame: a frame before this viewer's time wakes no one (with 60 frames a
        // second and 30 fps, half the bells).
        let listener = events.listen { change in
            if change == .scene || MonotonicClock.seconds() >= due.seconds { bell.yield() }
        }
        defer { events.stopListening(listener) }
        let writing = WriteStart()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // Messages from the viewer mean nothing here; reading them lets a close from its side end this.
                for try await _ in inbound {}
            }
            group.addTask {
                try await send(outbound: outbound, bells: bells, due: due, writing: writing)
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
        outbound: WebSocketOutboundWriter, bells: AsyncStream<Void>, due: DueTime, writing: WriteStart
    ) async throws {
        var pacer = ShowEventPacer(framesPerSecond: framesPerSecond, now: MonotonicClock.seconds())
        var rings = bells.makeAsyncIterator()
        while !Task.isCancelled {
            for line in pacer.take(events.latest, now: MonotonicClock.seconds()) {
                writing.milliseconds.store(Int64(saturating: MonotonicClock.seconds() * 1000) | 1, ordering: .relaxed)
                try await outbound.write(.text(String(decoding: line.dropLast(), as: UTF8.self)))
                writing.milliseconds.store(0, ordering: .relaxed)
            }
            tally.add(dropped: pacer.takeDropped())
            due.seconds = pacer.nextDue
            // A frame not yet due waits for the next bell: a newer frame, or the reminder when the stream went quiet
            // (QuietStreamReminder). No timer of its own: with 100 viewers at 30 fps, a sleep per viewer cost the
            // daemon 28% of a core, an event-loop timer per viewer 18%, none 10-12% (Tests/Benchmarks/web.sh).
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

/// When this viewer's next frame is due, in seconds of the monotonic clock, for the bell on the show's thread.
private final class DueTime: Sendable {
    private let bits = Atomic<UInt64>(0)

    var seconds: Double {
        get { Double(bitPattern: bits.load(ordering: .relaxed)) }
        set { bits.store(newValue.bitPattern, ordering: .relaxed) }
    }
}
