import LightShowControl
import LightShowCore
import LightShowSystem
import Logging
import Synchronization

/// Requests the server refused, counted by reason for `/metrics`, and logged quietly: an outsider can send
/// thousands of bad requests a second, and a line each would push the journal into rate-limiting and hide the
/// daemon's own messages. Each reason is logged at most once a minute, with how many came since its last line.
/// A 404 or 405 is a client's mistake, not the server's: logged at info.
final class WebRefusals: Sendable {
    static let logInterval: UInt64 = 60_000_000_000

    private struct Tally {
        var total: UInt64 = 0
        /// Refusals since the last line logged for this reason.
        var unlogged: UInt64 = 0
        var lastLogged: UInt64?
    }

    private let tallies = Mutex<[String: Tally]>([:])
    private let logger: Logger
    private let now: @Sendable () -> UInt64

    init(logger: Logger, now: @escaping @Sendable () -> UInt64 = { MonotonicClock.now() }) {
        self.logger = logger
        self.now = now
    }

    /// Counts `rejection`, and logs it if its reason had no line in the last minute.
    func record(_ rejection: WebRejection) {
        let time = now()
        let due: UInt64? = tallies.withLock { tallies in
            var tally = tallies[rejection.reason, default: Tally()]
            tally.total &+= 1
            tally.unlogged &+= 1
            defer { tallies[rejection.reason] = tally }
            if let last = tally.lastLogged, time &- last < Self.logInterval { return nil }
            tally.lastLogged = time
            defer { tally.unlogged = 0 }
            return tally.unlogged
        }
        guard let count = due else { return }
        let level: Logger.Level = [404, 405].contains(rejection.status) ? .info : .warning
        let times = count == 1 ? "" : " (\(count) refusals of this kind since the last line; at most one line a minute)"
        logger.log(level: level, "refused a request with \(rejection.status): \(SafeText.sanitized(rejection.message, limit: 200))\(times)")
    }

    /// Refusals so far by reason.
    var totals: [String: UInt64] {
        tallies.withLock { $0.mapValues(\.total) }
    }
}
