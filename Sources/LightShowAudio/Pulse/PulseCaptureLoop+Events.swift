import LightShowCore
import LightShowSystem
import Logging

extension PulseCaptureLoop {
    /// Acts on one piece of news from libpulse.
    mutating func handle(_ event: PulseEvent) {
        let now = MonotonicClock.now()
        switch event {
        case .ready:
            contextReady = true
            connection?.subscribe()
            resolveAt = now
            if serverLost != nil {
                logger.notice("\(spec): sound server \(connection?.serverDescription ?? "") is back after \(failedAttempts + 1) attempt(s)")
                recorder.update { $0.reopens += 1 }
                serverLost = nil
            }
            backoff.reset()
            failedAttempts = 0
        case .failed(let reason):
            serverGone(reason)
        case .changed:
            // Trailing debounce: each event in a burst pushes the lookup back.
            resolveAt = now + Self.debounce
        case .resolved(let source, let sinkName):
            resolving = nil
            lastUnresolved = nil
            unresolvedAnnounced = false
            if stream?.source != source { record(source, monitoring: sinkName) }
        case .unresolved(let reason, let noSuchEntity):
            resolving = nil
            lastUnresolved = reason
            // Waiting by itself, like a lost device: the daemon's watchdog must not restart it for that.
            if stream == nil { recorder.update { $0.state = .lost } }
            if explicitSource != nil, noSuchEntity { unknownSource = true }
            if !unresolvedAnnounced, sink != nil {
                logger.warning("\(spec): nothing to record yet (\(reason)); waiting for it")
                unresolvedAnnounced = true
            }
            // Server events also bring the next lookup; this bounds the wait when none comes.
            if resolveAt == nil { resolveAt = now + 500_000_000 }
        case .streamReady(let id, let source):
            guard id == stream?.id else { return }
            logger.debug("\(spec): stream connected to \(SafeText.sanitized(source, limit: 200))")
        case .streamFailed(let id, let reason):
            guard let lost = stream, id == lost.id else { return }
            stream = nil
            splice.cut()
            recorder.update { $0.state = .lost }
            logger.warning("\(spec): \(SafeText.sanitized(lost.source, limit: 200)) went away (\(reason)); looking for what to record")
            resolveAt = now + Self.debounce
        case .listed:
            break
        }
    }

    /// Opens a record stream on `source` (closing the one before), with one log line for the change.
    private mutating func record(_ source: String, monitoring sinkName: String?) {
        guard let connection else { return }
        let previous = stream?.source
        if stream != nil { splice.cut() }
        stream = nil
        streamCount += 1
        do {
            stream = try PulseStream(connection: connection, source: source, id: streamCount,
                                     sampleRate: sampleRate, channels: channels)
        } catch {
            logger.warning("\(error.message); trying again")
            resolveAt = MonotonicClock.now() + 500_000_000
            return
        }
        let what = SafeText.sanitized(source, limit: 200) + (sinkName.map { " (what plays on \(SafeText.sanitized($0, limit: 200)))" } ?? "")
        if let previous, previous != source {
            logger.notice("\(spec): now recording \(what)")
        } else {
            logger.info("\(spec): recording \(what)")
        }
    }

    /// The context failed: close everything and schedule a reconnect, with one log line per outage.
    private mutating func serverGone(_ reason: String) {
        if stream != nil { splice.cut() }
        stream = nil
        connection = nil
        contextReady = false
        resolving = nil
        resolveAt = nil
        lastFailure = reason
        if serverLost == nil { backoff.reset() }
        let delay = backoff.next()
        if serverLost == nil {
            serverLost = reason
            recorder.update {
                $0.losses += 1
                $0.state = .lost
            }
            if sink != nil {
                logger.warning("\(spec): sound server lost (\(reason)); reconnecting every 0.5–5 s until it returns")
            }
        } else {
            failedAttempts += 1
            logger.debug("\(spec): sound server still unavailable (\(reason))")
        }
        reconnectAt = MonotonicClock.now() + UInt64(delay * 1e9)
    }
}
