/// Process exit codes, following BSD sysexits.
public enum ExitStatus: Int32, Sendable {
    case ok = 0
    case usage = 64
    case dataError = 65
    case noInput = 66
    case ioError = 74
    case config = 78
}

/// An error meant for the user: one line naming the input and what was expected, and the exit status to use.
public protocol UserFacingError: Error, CustomStringConvertible {
    var exitStatus: ExitStatus { get }
}

/// A plain user-facing error for cases that need no type of their own.
public struct LightShowError: UserFacingError, Equatable {
    public var message: String
    public var exitStatus: ExitStatus

    public init(_ message: String, exitStatus: ExitStatus) {
        self.message = message
        self.exitStatus = exitStatus
    }

    public var description: String { message }
}
