import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The real `lightshow daemon` running in the background on a private runtime directory (its control socket is
/// `directory/control.sock`), with its log in a file. Killed on deinit if a test left it running.
public final class DaemonProcess: @unchecked Sendable {
    public let directory: TemporaryDirectory
    public let process: Process
    public var socketPath: String { directory.file("control.sock") }
    public var logPath: String { directory.file("daemon.log") }

    /// Starts `lightshow daemon arguments…` with `environment` over the test's own. It analyses at 20 fps unless
    /// the arguments say otherwise, which keeps many daemons of parallel tests light on a 2-core machine. Its
    /// stderr goes to `standardError` when given, else to the log file. `launcher` runs it (`NetworkNamespace.command`).
    public init(
        _ arguments: [String], environment: [String: String] = [:], directory: TemporaryDirectory,
        standardError: FileHandle? = nil, launcher: ([String]) -> [String] = { $0 }
    ) throws {
        self.directory = directory
        let command = launcher([LightshowProcess.executableURL.path, "daemon"] + arguments
            + (arguments.contains("--fps") ? [] : ["--fps", "20"]))
        let logPath = directory.file("daemon.log")
        guard FileManager.default.createFile(atPath: logPath, contents: nil) else {
            throw ExternalTool.Failure(description: "cannot create \(logPath)")
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process = try Launch.start(
            command, environment: ["RUNTIME_DIRECTORY": directory.path].merging(environment) { $1 },
            unset: ["NOTIFY_SOCKET", "WATCHDOG_USEC"], standardOutput: log, standardError: standardError ?? log
        )
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// True once the control socket exists (the daemon binds it before it opens the input).
    public func waitForSocket(timeout: Double = 30) async -> Bool {
        let path = socketPath
        return await OffPool.until(timeout: timeout) { FileManager.default.fileExists(atPath: path) }
    }

    public func send(signal number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// The exit status once the process ends within `timeout` seconds, else nil.
    public func waitForExit(timeout: Double) async -> Int32? {
        guard await OffPool.until(timeout: timeout, { !self.process.isRunning }) else { return nil }
        return process.terminationStatus
    }

    /// `lightshow ctl --socket <this daemon's> arguments…`.
    public func ctl(_ arguments: [String]) async throws -> LightshowProcess.Result {
        try await LightshowProcess.runDetached(["ctl", "--timeout", "30s", "--socket", socketPath] + arguments)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
