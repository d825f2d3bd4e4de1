import LightShowControl
import Logging
import Synchronization
import Testing
@testable import LightShowWeb

/// Refusals are counted by reason and logged at most once a minute a kind, on a clock the test moves, with a log
/// handler that records every line.
@Suite struct WebRefusalsTests {
    final class Lines: Sendable {
        let lines = Mutex<[(Logger.Level, String)]>([])
    }

    struct Recorder: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            lines.lines.withLock { $0.append((event.level, "\(event.message)")) }
        }
    }

    @Test func eachKindIsLoggedOnceAMinuteWithItsCount() {
        let lines = Lines()
        let clock = Atomic<UInt64>(1_000)
        let refusals = WebRefusals(logger: Logger(label: "test") { _ in Recorder(lines: lines) }, now: { clock.load(ordering: .relaxed) })
        for _ in 0..<1000 { refusals.record(WebRejection(421, "wrong Host")) }
        for _ in 0..<500 { refusals.record(WebRejection(404, "no such page")) }
        #expect(lines.lines.withLock { $0.count } == 2)
        #expect(refusals.totals == ["host": 1000, "not_found": 500])
        // A 404 is a client's mistake: info, not a warning.
        #expect(lines.lines.withLock { $0.first { $0.1.contains("404") }?.0 } == .info)
        #expect(lines.lines.withLock { $0.first { $0.1.contains("421") }?.0 } == .warning)

        // A minute on, the next refusal of a kind says how many came since its last line.
        clock.store(1_000 + WebRefusals.logInterval, ordering: .relaxed)
        refusals.record(WebRejection(421, "wrong Host"))
        let last = lines.lines.withLock { $0.last?.1 } ?? ""
        #expect(lines.lines.withLock { $0.count } == 3)
        #expect(last.contains("1000 refusals of this kind"), "\(last)")
    }

    @Test func handshakeKeysAreCheckedAsTheRFCSays() {
        #expect(WebSocketHandshake.problem(key: "dGhlIHNhbXBsZSBub25jZQ==", version: "13") == nil)
        #expect(WebSocketHandshake.problem(key: nil, version: "13")?.contains("missing") == true)
        #expect(WebSocketHandshake.problem(key: "short==", version: "13") != nil)
        #expect(WebSocketHandshake.problem(key: "dGhlIHNhbXBsZSBub25jZQ!=", version: "13") != nil)
        #expect(WebSocketHandshake.problem(key: "dGhlIHNhbXBsZSBub25jZQ==", version: "8")?.contains("13") == true)
    }

    @Test func refusalCountsTravelToTheDaemonAndOnlyKnownReasonsComeBack() {
        let counts = WebServerCounts(clients: 1, viewers: 0, droppedFrames: 0, refusals: ["host": 3, "not_found": 2])
        #expect(WebServerCounts(json: counts.json) == counts)
        let hostile: JSONValue = [
            "clients": 1, "viewers": 0, "dropped_frames": 0,
            "refusals": ["host": 3, "evil\"} 1\nlightshow_x": 9, "timeout": -1],
        ]
        #expect(WebServerCounts(json: hostile)?.refusals == ["host": 3])
    }
}
