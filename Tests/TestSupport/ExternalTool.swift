import Foundation

/// Runs a helper program the tests rely on (sox, paplay, pactl) and reports how it went.
public enum ExternalTool {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `tool arguments…` from the PATH to completion; throws with its stderr when it fails.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        group.wait()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) failed: \(String(decoding: errData, as: UTF8.self))")
        }
        return String(decoding: outData, as: UTF8.self)
    }

    /// `run` on a thread of its own, so waiting for the tool never holds a thread of the (small) cooperative pool
    /// that other tests running in parallel need.
    @discardableResult
    public static func runDetached(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try run(tool, arguments, environment: environment) })
            }
        }
    }
}
