import LightShowCore
import LightShowSystem

/// Where a recording goes: numbered PNG frames through the encoders, `frames.jsonl`, and `audio.wav` when the
/// recording has audio. Both kinds of recording (an input's, a daemon's stream) settle it the same way.
/// Unchecked: `audio` is written by one thread at a time (the recording's writer, and after it has ended, `finish`).
final class RecordingOutput: @unchecked Sendable {
    let directory: OutputDirectory
    let frames: FrameSequenceWriter
    /// nil for a recording of a daemon's stream, which carries levels, not audio.
    let audio: WAVFileWriter?
    /// Opened before anything is written, so the sync at the end hears of every write-back error since.
    private let durability: FileSystemSync

    init(
        path: String, force: Bool, size: FrameSize, style: Scene.Style, audioFormat: (sampleRate: Int, channels: Int)?
    ) throws {
        let directory = try OutputDirectory(path: path, force: force)
        do {
            durability = try FileSystemSync(directory: directory.path)
        } catch {
            throw RecordingOutput.notWritten(directory, error)
        }
        let frames = try FrameSequenceWriter(directory: directory, width: size.width, height: size.height, style: style)
        do {
            audio = try audioFormat.map { format throws(LightShowError) in
                try WAVFileWriter(
                    path: directory.file(OutputDirectory.audioName), sampleRate: format.sampleRate, channels: format.channels
                )
            }
        } catch {
            _ = try? frames.finish()
            throw error
        }
        self.directory = directory
        self.frames = frames
    }

    /// Completes every file, whatever went wrong before, and returns the summary; or throws the first failure
    /// with what the directory still holds. A write error from the frames is the most complete account.
    func finish(after earlier: (any Error)?, seconds: Double) throws -> RecordSession.Summary {
        var failure = earlier
        var count = 0
        do {
            count = try frames.finish()
        } catch {
            failure = error
        }
        do {
            try audio?.finish()
        } catch {
            if failure == nil { failure = error }
        }
        // Frames are neither synced one by one (that would slow recording down) nor can their close() report a
        // failed write-back: one sync of the filesystem covers every file and rename, whatever ended the recording.
        do {
            try durability.sync()
        } catch {
            if failure == nil { failure = Self.notWritten(directory, error) }
        }
        if let failure = failure as? LightShowError {
            // An audio or input failure: say what the directory still holds, as a frame failure does.
            throw LightShowError("\(failure.message); \(directory.stopNote(frames: count))", exitStatus: failure.exitStatus)
        }
        if let failure { throw failure }
        return RecordSession.Summary(frames: count, seconds: seconds, directory: directory.path)
    }

    private static func notWritten(_ directory: OutputDirectory, _ error: SystemCallError) -> RecordingError {
        RecordingError("cannot write \(directory.path): \(error)")
    }
}
