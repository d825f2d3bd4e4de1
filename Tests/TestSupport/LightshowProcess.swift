import Foundation

/// Runs the real `lightshow` executable built next to the tests.
public enum LightshowProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// The executable under test: `$LIGHTSHOW_BIN`, else the one SwiftPM built beside the test bundle.
    public static var executableURL: URL {
        if let path = ProcessInfo.processInfo.environment["LIGHTSHOW_BIN"] {
            return URL(fileURLWithPath: path)
        }
        // The test bundle lives in the build products directory, next to the executable.
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [products, products.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("lightshow")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return PackagePaths.root.appendingPathComponent(".build/debug/lightshow")
    }

    /// `run` on a thread of its own, so a test waiting for the process leaves the cooperative pool free
    /// (for an in-process server the command talks to).
    public static func runDetached(
        _ arguments: [String],
        environment: [String: String] = [:]
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Swift.Result { try run(arguments, environment: environment) })
            }
        }
    }

    /// Runs `lightshow arguments…` to completion, feeding `stdin` if given, and returns its status and output.
    /// `launcher`, if given, runs it instead: `launcher… /path/to/lightshow arguments…`.
    public static func run(
        _ arguments: [String],
        stdin: Data? = nil,
        environment: [String: String] = [:],
        launcher: [String] = []
    ) throws -> Result {
        let process = Process()
        if let first = launcher.first {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = launcher.dropFirst() + [executableURL.path] + arguments
        } else {
            process.executableURL = executableURL
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        // Drain both pipes concurrently so a chatty child can't block on a full pipe.
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
        // Threads of their own rather than Dispatch's pool, which grows only slowly when many tests block in it.
        let group = DispatchGroup()
        for (handle, store) in [(out, 0), (err, 1)] {
            group.enter()
            Thread.detachNewThread {
                let data = handle.fileHandleForReading.readDataToEndOfFile()
                if store == 0 { outData = data } else { errData = data }
                group.leave()
            }
        }
        if let stdin {
            // A child that exits without reading all its input must not kill the test run with SIGPIPE.
            signal(SIGPIPE, SIG_IGN)
            try? input.fileHandleForWriting.write(contentsOf: stdin)
            try? input.fileHandleForWriting.close()
        }
        process.waitUntilExit()
        group.wait()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self)
        )
    }
}
