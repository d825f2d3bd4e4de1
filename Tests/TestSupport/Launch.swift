import Foundation

/// The tests' one way to start a program: `command[0]` is an absolute path, or a name looked up on the PATH
/// (through /usr/bin/env); the test's environment with `unset` removed and `environment` over it; standard input
/// from /dev/null unless given.
public enum Launch {
    /// What a program that ran to its end said.
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Starts `command` with the given standard streams (a `FileHandle` or a `Pipe`; nil: /dev/null).
    public static func start(
        _ command: [String], environment: [String: String] = [:], unset: [String] = [],
        standardInput: Any? = nil, standardOutput: Any? = nil, standardError: Any? = nil
    ) throws -> Process {
        guard let first = command.first else { throw ExternalTool.Failure(description: "nothing to launch") }
        let process = Process()
        if first.hasPrefix("/") {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(command.dropFirst())
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = command
        }
        var env = ProcessInfo.processInfo.environment
        for key in unset { env[key] = nil }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = standardInput ?? FileHandle.nullDevice
        process.standardOutput = standardOutput ?? FileHandle.nullDevice
        process.standardError = standardError ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs `command` to its end, feeding it `stdin` if given, and returns its status and output.
    public static func run(_ command: [String], stdin: Data? = nil, environment: [String: String] = [:]) throws -> Output {
        let out = Pipe(), err = Pipe(), input = Pipe()
        let process = try start(command, environment: environment, standardInput: stdin == nil ? nil : input,
                                standardOutput: out, standardError: err)
        // Both pipes drained at once, so a chatty child can't block on a full one; on threads of their own rather
        // than Dispatch's pool, which grows only slowly when many tests block in it.
        nonisolated(unsafe) var outData = Data()
        nonisolated(unsafe) var errData = Data()
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
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self)
        )
    }
}
