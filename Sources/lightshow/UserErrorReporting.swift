import ArgumentParser
import LightShowCore

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
    var bytes = Array(text.utf8)
    // write(2) rather than stdio: no shared FILE state, and unbuffered like stderr should be.
    bytes.withUnsafeMutableBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(2, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
