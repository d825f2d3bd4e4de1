import LightShowCore
import LightShowSystem

#if canImport(Glibc)
import Glibc
#endif

/// The directory a recording goes to: created when missing, refused when it holds anything unless forced.
public struct OutputDirectory: Sendable {
    public let path: String

    /// Frame file name for an index: `frame_000042.png`.
    public static func frameName(_ index: Int) -> String {
        let digits = String(index)
        return "frame_" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".png"
    }

    /// The hidden name a frame is written under before it is renamed into place.
    public static func temporaryName(_ index: Int) -> String { "." + frameName(index) + ".tmp" }

    public static let framesLogName = "frames.jsonl"
    public static let audioName = "audio.wav"

    /// Prepares `path`. With `force`, an earlier recording's files (frames, log, audio, temporaries) are removed
    /// first so that no stale frame can mix into the new sequence; anything else in the directory is left alone.
    public init(path: String, force: Bool) throws(RecordingError) {
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        let status: stat?
        do throws(SystemCallError) {
            status = try FileSystem.status(self.path)
            if status == nil { try Directory.makeAll(self.path) }
        } catch {
            throw .write(self.path, error)
        }
        guard let info = status else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw RecordingError("--out \(self.path) is not a directory; expected a new or empty directory", exitStatus: .usage)
        }
        var entries = try Self.entries(of: self.path)
        // Temporaries of ours are incomplete files a killed recording left; they hold nothing to keep, so they
        // don't make the directory "not empty" for the next run.
        for name in entries where Self.isTemporary(name) {
            try Self.remove(self.path + "/" + name)
        }
        entries.removeAll(where: Self.isTemporary)
        guard !entries.isEmpty else { return }
        guard force else {
            throw RecordingError(
                "--out \(self.path) is not empty (\(entries.count) entries); expected a new or empty directory, or pass --force",
                exitStatus: .usage
            )
        }
        for name in entries where Self.isRecordingFile(name) {
            try Self.remove(self.path + "/" + name)
        }
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// What the directory holds after a recording stopped early: the end of every such error message.
    public func stopNote(frames: Int) -> String {
        "recording stopped: \(frames) complete frames are in \(path), all listed in \(Self.framesLogName)"
    }

    /// Names in the directory other than `.` and `..`.
    static func entries(of path: String) throws(RecordingError) -> [String] {
        do throws(SystemCallError) {
            return try Directory.entries(of: path)
        } catch {
            throw RecordingError("cannot read --out \(path): \(error.message)")
        }
    }

    private static func remove(_ path: String) throws(RecordingError) {
        do throws(SystemCallError) {
            try FileSystem.remove(path)
        } catch {
            throw .write(path, error)
        }
    }

    static func isTemporary(_ name: String) -> Bool {
        name == "." + audioName + ".tmp" || (name.hasPrefix(".frame_") && name.hasSuffix(".png.tmp"))
    }

    static func isRecordingFile(_ name: String) -> Bool {
        name == framesLogName || name == audioName || name == "." + audioName + ".tmp"
            || (name.hasPrefix("frame_") && name.hasSuffix(".png"))
            || (name.hasPrefix(".frame_") && name.hasSuffix(".png.tmp"))
    }
}
