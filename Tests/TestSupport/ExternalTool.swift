import Foundation

/// Runs a helper program the tests rely on (sox, paplay, pactl) and reports how it went.
public enum ExternalTool {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `tool arguments…` from the PATH to completion; throws with its stderr when it fails.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let result = try Launch.run([tool] + arguments, environment: environment)
        guard result.status == 0 else {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
        return result.stdout
    }

    /// `run` on a thread of its own, so waiting for the tool never holds a thread of the (small) cooperative pool
    /// that other tests running in parallel need.
    @discardableResult
    public static func runDetached(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> String {
        try await OffPool.run { try run(tool, arguments, environment: environment) }
    }
}
