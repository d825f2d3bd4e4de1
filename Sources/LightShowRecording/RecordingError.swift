public import LightShowCore
import LightShowSystem

/// A recording that can't go on: a write failed (exit 74) or the output directory can't be used.
public struct RecordingError: UserFacingError, Equatable {
    public var message: String
    public var exitStatus: ExitStatus

    public init(_ message: String, exitStatus: ExitStatus = .ioError) {
        self.message = message
        self.exitStatus = exitStatus
    }

    /// "cannot write PATH: reason" from a failed call.
    static func write(_ path: String, _ error: SystemCallError) -> RecordingError {
        RecordingError("cannot write \(path): \(error.message)")
    }

    public var description: String { message }
}
