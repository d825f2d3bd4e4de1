public import LightShowCore

#if canImport(Glibc)
import Glibc
#endif

/// A recording that can't go on: a write failed (exit 74) or the output directory can't be used.
public struct RecordingError: UserFacingError, Equatable {
    public var message: String
    public var exitStatus: ExitStatus

    public init(_ message: String, exitStatus: ExitStatus = .ioError) {
        self.message = message
        self.exitStatus = exitStatus
    }

    /// "cannot write PATH: reason" from an errno value.
    static func write(_ path: String, errno code: Int32) -> RecordingError {
        RecordingError("cannot write \(path): \(String(cString: strerror(code)))")
    }

    public var description: String { message }
}
