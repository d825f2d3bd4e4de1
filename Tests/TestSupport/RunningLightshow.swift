import Foundation
import Synchronization

/// The real `lightshow` executable running in the background, its stdout recorded line by line as it comes.
public final class RunningLightshow: @unchecked Sendable {
    public let lines: StreamRecorder<String>
    private let process: Process
    private final class Collected: Sendable { let data = Mutex(Data()) }
    private let errors = Collected()

    public init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let out = Pipe(), err = Pipe()
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        lines = StreamRecorder(stream)
        process = try Launch.start([LightshowProcess.executableURL.path] + arguments, environment: environment,
                                   standardOutput: out, standardError: err)
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    continuation.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            continuation.finish()
        }
        Thread.detachNewThread { [errors] in
            while true {
                let chunk = err.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                errors.data.withLock { $0.append(chunk) }
            }
        }
    }

    /// Everything written to stderr so far.
    public var stderr: String { errors.data.withLock { String(decoding: $0, as: UTF8.self) } }

    public var processIdentifier: Int32 { process.processIdentifier }

    public var isRunning: Bool { process.isRunning }

    /// The exit status, once it has exited.
    public var exitStatus: Int32 { process.terminationStatus }

    /// Sends SIGINT, as Ctrl-C would; doesn't wait.
    public func interrupt() {
        if process.isRunning { process.interrupt() }
    }

    /// Stops the process with SIGTERM and waits for it; returns its exit status.
    @discardableResult
    public func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit { stop() }
}
