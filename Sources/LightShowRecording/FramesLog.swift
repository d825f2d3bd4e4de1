import LightShowCore
import LightShowSystem

#if canImport(Glibc)
import Glibc
#endif

/// `frames.jsonl`: one line per committed frame, in index order. A failed append is cut back to the last
/// whole line, so the log always lists exactly the frames on disk. Appended to by one thread only (the committer).
final class FramesLog: @unchecked Sendable {
    let path: String
    private let file: OwnedDescriptor
    private var committedLength: Int64 = 0

    init(path: String) throws(RecordingError) {
        self.path = path
        do throws(SystemCallError) {
            // Never through a link someone put in the directory.
            file = try OwnedDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW)
        } catch {
            throw .write(path, error)
        }
    }

    /// Appends the line for `frame`; on failure the file is cut back to the last whole line and the error thrown.
    func append(_ frame: ShowFrame) throws(RecordingError) {
        let bytes = Array(Self.line(for: frame).utf8)
        do throws(SystemCallError) {
            let outcome = try FileDescriptorIO.writeAll(file.rawValue, bytes)
            guard outcome == .complete else { throw SystemCallError("write", code: EIO) }
        } catch {
            try? file.truncate(to: committedLength)
            throw .write(path, error)
        }
        committedLength += Int64(bytes.count)
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
