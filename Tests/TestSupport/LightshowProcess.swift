import Foundation

/// Runs the real `lightshow` executable built next to the tests.
public enum LightshowProcess {
    public typealias Result = Launch.Output

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
        try await OffPool.run { try run(arguments, environment: environment) }
    }

    /// Runs `lightshow arguments…` to completion, feeding `stdin` if given, and returns its status and output.
    /// `launcher`, if given, runs it instead: `launcher… /path/to/lightshow arguments…`.
    public static func run(
        _ arguments: [String],
        stdin: Data? = nil,
        environment: [String: String] = [:],
        launcher: [String] = []
    ) throws -> Result {
        try Launch.run(launcher + [executableURL.path] + arguments, stdin: stdin, environment: environment)
    }
}
