import LightShowCore

/// The text side of MPD's protocol, apart from the socket: greetings, reply lines, argument quoting.
enum MPDProtocol {
    /// One line of a reply.
    enum ReplyLine: Equatable {
        case field(MPDField)
        /// The reply is complete.
        case ok
        /// The command failed; the whole line, for the log.
        case ack(String)
    }

    /// Checks the server's first line, `OK MPD <version>`, and returns the version.
    static func version(fromGreeting line: String) throws(MPDError) -> String {
        guard line.hasPrefix("OK MPD ") else {
            throw .protocolError("greeting '\(SafeText.sanitized(String(line.prefix(80))))' is not 'OK MPD <version>'")
        }
        return String(line.dropFirst("OK MPD ".count))
    }

    static func parse(_ line: String) throws(MPDError) -> ReplyLine {
        if line == "OK" { return .ok }
        if line.hasPrefix("ACK ") { return .ack(line) }
        // Keys never hold a colon; values may.
        guard let colon = line.firstIndex(of: ":"), colon > line.startIndex,
              line[line.index(after: colon)...].first == " "
        else {
            throw .protocolError("reply line '\(SafeText.sanitized(String(line.prefix(80))))' is not 'key: value', OK or ACK")
        }
        let value = line[line.index(colon, offsetBy: 2)...]
        return .field(MPDField(key: String(line[..<colon]), value: String(value)))
    }

    /// An argument in double quotes, with `"` and `\` escaped as MPD expects.
    static func quoted(_ argument: String) -> String {
        var out = "\""
        for character in argument {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        out.append("\"")
        return out
    }
}
