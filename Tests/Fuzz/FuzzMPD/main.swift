import FuzzDriver
@testable import LightShowNowPlaying

// MPD replies: the greeting, every line of a reply, and the status the show builds from them (numbers such as
// `elapsed: 1e300`, titles with control characters).
FuzzDriver.main { bytes in
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    _ = try? MPDProtocol.version(fromGreeting: String(lines.first ?? ""))
    var fields: [MPDField] = []
    for line in lines.dropFirst() {
        switch try? MPDProtocol.parse(String(line)) {
        case .field(let field): fields.append(field)
        default: break
        }
    }
    if let status = try? NowPlayingStatus(mpdStatus: fields, currentSong: fields) {
        _ = status.title.map(SafeTitle.check)
    }
}

/// A title that reaches the toolbar must be free of control characters.
enum SafeTitle {
    static func check(_ title: String) {
        precondition(!title.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
}
