import Foundation

/// A private X server (Xvfb on a display number it picks itself) with one xterm running a command, read back with
/// ImageMagick's `import -window root`. Both are ended when the value is released.
public final class XtermDisplay: @unchecked Sendable {
    /// `:N`, for DISPLAY.
    public let display: String
    private let server: Process
    private let terminal: Process

    /// Starts `command` (program and arguments) in a `columns`×`rows` xterm (`-fa Monospace -fs 8`) with
    /// `environment` added to this process's.
    public init(columns: Int = 160, rows: Int = 48, environment: [String: String] = [:], command: [String]) throws {
        // -displayfd: Xvfb picks a free display and writes its number once it accepts clients.
        let number = Pipe()
        server = try Launch.start(
            ["/usr/bin/Xvfb", "-displayfd", "1", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"], standardOutput: number
        )
        var digits = Data()
        while let byte = try number.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            digits += byte
        }
        guard let value = Int(String(decoding: digits, as: UTF8.self)) else {
            server.terminate()
            throw ExternalTool.Failure(description: "Xvfb did not say which display it took")
        }
        display = ":\(value)"
        var environment = environment
        environment["DISPLAY"] = display
        do {
            terminal = try Launch.start(
                ["/usr/bin/xterm", "-geometry", "\(columns)x\(rows)", "-fa", "Monospace", "-fs", "8", "-e"] + command,
                environment: environment
            )
        } catch {
            server.terminate()
            throw error
        }
    }

    deinit {
        // SIGKILL: a child started from a test thread may inherit a mask that holds SIGTERM back.
        for process in [terminal, server] where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    public var terminalIsRunning: Bool { terminal.isRunning }

    /// The program xterm started (its only child), once it runs.
    public func program() -> pid_t? {
        let pid = terminal.processIdentifier
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").first.flatMap { pid_t($0) }
    }

    /// The whole screen now, decoded by libpng.
    public func screenshot(in directory: TemporaryDirectory, name: String = "shot.png") throws -> DecodedPNG {
        let path = directory.file(name)
        try ExternalTool.run("import", ["-display", display, "-window", "root", path])
        return try DecodedPNG(path: path)
    }

    /// A screenshot once two taken in a row are the same (the terminal has finished drawing), within `timeout`.
    public func settledScreenshot(in directory: TemporaryDirectory, timeout: Double = 20, until ready: (DecodedPNG) -> Bool = { _ in true }) throws -> DecodedPNG? {
        var last: DecodedPNG?
        var found: DecodedPNG?
        _ = try Wait.until(timeout: timeout) {
            let shot = try screenshot(in: directory)
            defer { last = shot }
            guard ready(shot), let last, last.rgb == shot.rgb else { return false }
            found = shot
            return true
        }
        return found
    }
}
