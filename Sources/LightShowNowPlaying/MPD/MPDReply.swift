import LightShowCore

/// MPD's `status` + `currentsong` replies as the show sees them.
extension NowPlayingStatus {
    /// Builds the status from the key/value pairs of a `status` and a `currentsong` reply.
    /// A reply without a known `state` is malformed.
    public init(mpdStatus status: [MPDField], currentSong: [MPDField]) throws(MPDError) {
        func value(_ key: String, in fields: [MPDField]) -> String? {
            fields.first { $0.key == key }?.value
        }
        let state: PlaybackState
        switch value("state", in: status) {
        case "play": state = .playing
        case "pause": state = .paused
        case "stop": state = .stopped
        case let other:
            throw .protocolError("status reply has state '\(SafeText.sanitized(other ?? "(missing)", limit: 40))', expected play, pause or stop")
        }
        var elapsed = value("elapsed", in: status).flatMap(Double.init)
        var duration = value("duration", in: status).flatMap(Double.init)
        // Servers before 0.20 give only `time: elapsed:total` in whole seconds.
        if elapsed == nil || duration == nil, let time = value("time", in: status) {
            let parts = time.split(separator: ":")
            if parts.count == 2 {
                elapsed = elapsed ?? Double(parts[0])
                duration = duration ?? Double(parts[1])
            }
        }
        let title = Self.title(
            title: value("Title", in: currentSong),
            artist: value("Artist", in: currentSong),
            file: value("file", in: currentSong)
        )
        self.init(state: state, title: title, elapsed: elapsed, duration: duration)
    }
}

/// One `key: value` line of an MPD reply.
public struct MPDField: Sendable, Equatable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// What goes wrong talking to MPD. None of it stops the show: the client logs it and reconnects.
public enum MPDError: Error, Equatable, CustomStringConvertible {
    /// MPD can't be reached, or the connection failed.
    case unreachable(String)
    /// MPD answered something that isn't its protocol.
    case protocolError(String)
    /// MPD refused a command: `ACK [code@index] {command} message`.
    case ack(String)
    /// The client was asked to stop.
    case stopped
    /// A forwarded command broke into a wait (`idle`).
    case interrupted

    public var description: String {
        switch self {
        case .unreachable(let why): why
        case .protocolError(let why): "protocol error: \(why)"
        case .ack(let line): "MPD refused: \(line)"
        case .stopped: "stopped"
        case .interrupted: "interrupted"
        }
    }
}
