public import LightShowCore

/// What MPD says it is doing, from `status` + `currentsong`.
public struct MPDStatus: Sendable, Equatable {
    public var state: PlaybackState
    /// `Title`, else `Artist – file name`, else the file name; nil when there is no current song.
    public var title: String?
    /// Seconds into the song when MPD answered.
    public var elapsed: Double?
    public var duration: Double?

    public init(state: PlaybackState, title: String? = nil, elapsed: Double? = nil, duration: Double? = nil) {
        self.state = state
        self.title = title
        self.elapsed = elapsed
        self.duration = duration
    }

    /// Builds the status from the key/value pairs of a `status` and a `currentsong` reply.
    /// A reply without a known `state` is malformed.
    public init(status: [MPDField], currentSong: [MPDField]) throws(MPDError) {
        func value(_ key: String, in fields: [MPDField]) -> String? {
            fields.first { $0.key == key }?.value
        }
        switch value("state", in: status) {
        case "play": state = .playing
        case "pause": state = .paused
        case "stop": state = .stopped
        case let other:
            throw .protocolError("status reply has state '\(other ?? "(missing)")', expected play, pause or stop")
        }
        elapsed = value("elapsed", in: status).flatMap(Double.init)
        duration = value("duration", in: status).flatMap(Double.init)
        // Servers before 0.20 give only `time: elapsed:total` in whole seconds.
        if elapsed == nil || duration == nil, let time = value("time", in: status) {
            let parts = time.split(separator: ":")
            if parts.count == 2 {
                elapsed = elapsed ?? Double(parts[0])
                duration = duration ?? Double(parts[1])
            }
        }
        title = Self.title(
            title: value("Title", in: currentSong),
            artist: value("Artist", in: currentSong),
            file: value("file", in: currentSong)
        )
    }

    /// `Title`, else `Artist – file name`, else the file name (without its folder).
    static func title(title: String?, artist: String?, file: String?) -> String? {
        if let title, !title.isEmpty { return title }
        let fileName = file.flatMap { $0.split(separator: "/").last.map(String.init) }
        switch (artist, fileName) {
        case (let artist?, let fileName?) where !artist.isEmpty: return "\(artist) – \(fileName)"
        case (_, let fileName?): return fileName
        case (let artist?, nil) where !artist.isEmpty: return artist
        default: return nil
        }
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

    public var description: String {
        switch self {
        case .unreachable(let why): why
        case .protocolError(let why): "protocol error: \(why)"
        case .ack(let line): "MPD refused: \(line)"
        case .stopped: "stopped"
        }
    }
}
