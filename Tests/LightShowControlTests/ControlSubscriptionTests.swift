import Foundation
import Testing
import TestSupport
@testable import LightShowControl

/// `subscribe` streams: paced at the requested fps, newest frame only, and never held up by a client.
@Suite struct ControlSubscriptionTests {
    /// Publishes `count` frames at `rate` Hz, each with a `seq` and `padding` bytes; returns the slowest publish call.
    static func produce(_ server: ControlServer<RecordingHandler>, count: Int, rate: Double, padding: Int) -> Double {
        let pad = String(repeating: "p", count: padding)
        let start = Date()
        var slowest = 0.0
        for seq in 1...count {
            let due = start.addingTimeInterval(Double(seq) / rate)
            if due > Date() { Thread.sleep(until: due) }  // pacing the stream, not synchronisation
            let before = Date()
            server.publishFrame(["event": "frame", "seq": .number(Double(seq)), "pad": .string(pad)])
            slowest = max(slowest, Date().timeIntervalSince(before))
        }
        return slowest
    }

    @Test func framesArriveAtTheRequestedRate() async throws {
        let fixture = try ServerFixture()
        let client = try await fixture.client()
        #expect(try await client.request("subscribe", arguments: ["fps": 20])["ok"] == true)
        let producer = Thread { _ = Self.produce(fixture.server, count: 200, rate: 100, padding: 0) }
        producer.start()
        let (sequences, elapsed) = try await client.readFrames(until: 200)
        #expect(sequences.last == 200, "the newest frame is always delivered in the end")
        #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count)
        // 2 s of frames at 20 fps: about 40, never far more (throttled), never starved.
        let rate = Double(sequences.count) / elapsed
        #expect(rate <= 24, "rate \(rate) fps above the requested 20")
        #expect(sequences.count >= 15, "only \(sequences.count) frames")
        // Frames left out to keep to 20 fps are not dropped: counting them would make about 160. A loaded machine
        // may hold the loop back by a whole turn now and then, which is a turn this reader really missed.
        #expect(fixture.server.droppedFrames < 10, "\(fixture.server.droppedFrames) dropped")
    }

    @Test func aSubscriberThatNeverReadsSlowsNoOne() async throws {
        let fixture = try ServerFixture()
        let stalled = try await fixture.client()
        let reader = try await fixture.client()
        #expect(try await stalled.request("subscribe", arguments: ["fps": 240])["ok"] == true)
        #expect(try await reader.request("subscribe", arguments: ["fps": 60])["ok"] == true)

        let published = 300
        nonisolated(unsafe) var slowestPublish = 0.0
        let producer = Thread {
            slowestPublish = Self.produce(fixture.server, count: published, rate: 200, padding: 8192)
        }
        producer.start()

        let (received, elapsed) = try await reader.readFrames(until: published)
        #expect(received.last == published)
        // The reader can get at most one frame per 1/60 s and no more than were published; the stalled
        // client must not cost it more than half of that (a loaded machine may slow the producer too).
        let possible = min(Double(published), 60 * elapsed)
        #expect(Double(received.count) >= 0.5 * possible, "reader got \(received.count) of \(possible) frames in \(elapsed) s")
        #expect(await Wait.until(within: 10) { producer.isFinished })
        // A publish that waited on the stalled client would never return; a loaded machine may still pause a thread.
        #expect(slowestPublish < 0.5, "publishing blocked for \(slowestPublish) s")

        // The stalled client's socket filled long ago; when it finally reads it gets in-order frames
        // ending with the newest, having skipped everything in between.
        let backlog = try await stalled.readFrames(until: published).sequences
        #expect(backlog.last == published)
        #expect(backlog == backlog.sorted())
        #expect(backlog.count < published / 2, "a stalled client got \(backlog.count) of \(published) frames")
        // The frames it missed while its socket was full are counted as dropped, and no more than were missed.
        let dropped = fixture.server.droppedFrames
        #expect(dropped > 0)
        #expect(dropped <= UInt64(2 * published - backlog.count - received.count), "\(dropped) dropped")
    }
}
