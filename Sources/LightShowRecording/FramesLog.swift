import LightShowCore
import LightShowSystem

#if canImport(Glibc)
import Glibc
#endif

/// `frames.jsonl`: one line per committed frame, in index order. A failed append is cut back to the last
/// whole line, so the log always lists exactly the frames on disk. Appended to by one thread only (the committer).
final class FramesLog: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private var committedLength: off_t = 0

    init(path: String) throws(RecordingError) {
        self.path = path
        // Never through a link someone put in the directory.
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .write(path, errno: errno) }
    }

    deinit { close(fd) }

    /// Appends the line for `frame`; on failure the file is truncated back and the error thrown.
    func append(_ frame: ShowFrame) throws(RecordingError) {
        let bytes = Array(Self.line(for: frame).utf8)
        let failure = FrameFile.writeAll(fd, bytes)
        if let failure {
            _ = ftruncate(fd, committedLength)
            _ = lseek(fd, committedLength, SEEK_SET)
            throw .write(path, errno: failure)
        }
        committedLength += off_t(bytes.count)
    }

    /// `{"index":0,"t":0.0000,"bass":0.8200,"mid":0.1000,"treble":0.0200,"state":"playing"}`: analyze's jsonl
    /// line with the frame index in front and four decimals on the levels.
    static func line(for frame: ShowFrame) -> String {
        var bytes = Array(#"{"index":"#.utf8)
        AnalysisLineFormatter.appendInteger(frame.index, to: &bytes)
        bytes.append(contentsOf: #","t":"#.utf8)
        AnalysisLineFormatter.appendFixed(frame.time, decimals: 4, to: &bytes)
        for band in Band.allCases {
            bytes.append(contentsOf: ",\"\(band.rawValue)\":".utf8)
            AnalysisLineFormatter.appendFixed(Double(frame.levels[band]), decimals: 4, to: &bytes)
        }
        bytes.append(contentsOf: ",\"state\":\"\(frame.state.rawValue)\"}\n".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }
}
