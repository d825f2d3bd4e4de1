import ArgumentParser
import LightShowCore
import LightShowSystem

#if canImport(Glibc)
import Glibc
#endif

/// Runs `body`, turning a `UserFacingError` into lines on stderr and its exit status, never a stack trace.
/// An error with several problems (an invalid config file) prints one line per problem.
func reportingUserErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as any UserFacingError {
        for line in error.description.split(separator: "\n") {
            printError("lightshow: \(line)")
        }
        throw ExitCode(error.exitStatus.rawValue)
    }
}

/// Writes one line to standard error.
func printError(_ line: String) {
    var text = line
    if !text.hasSuffix("\n") { text += "\n" }
    // Straight to the descriptor rather than stdio: no shared FILE state, and unbuffered like stderr should be.
    // Nothing is left to tell of a failure to write to standard error.
    _ = try? FileDescriptorIO.writeAll(2, Array(text.utf8))
}
