#if canImport(Glibc)
import Glibc
#endif
import LightShowControl
import LightShowCore
import LightShowSystem
import Logging

/// The `lightshow-web` process that `lightshow daemon` starts for `[web]`: it reads its settings on standard input
/// (`WebProcessSettings`), relays the daemon's frames and commands through the control socket, answers
/// `{"listening":PORT}` or `{"error":"…"}` on standard output, and serves until its standard input closes (the
/// daemon stopped it, or is gone).
public enum WebProcessMain {
    /// Longest settings line read.
    static let settingsLimit = 65_536

    /// Runs the process; returns its exit status.
    public static func run() async -> Int32 {
        let logger = Logger(label: "lightshow.web")
        let line: [UInt8]
        do {
            line = try await DedicatedThread.run(name: "ls-web-settings") { () throws(LightShowError) in
                try readLine(from: 0, limit: settingsLimit)
            }
        } catch {
            return fail("standard input: \(error.message)", status: .usage)
        }
        guard !line.isEmpty else {
            return fail("lightshow-web is started by `lightshow daemon` when [web] listen is set; it reads its settings on standard input", status: .usage)
        }
        let settings: WebProcessSettings
        switch WebProcessSettings.parse(line) {
        case .success(let parsed): settings = parsed
        case .failure(let error): return fail("settings on standard input: \(error)", status: .usage)
        }

        // What ends the process: its standard input closing (the daemon stopped it, or is gone).
        let endings = BoundedQueue<String>(capacity: 1)
        let relay: DaemonRelay
        do throws(LightShowError) {
            relay = try DaemonRelay(path: settings.socketPath, framesPerSecond: WebRequestPolicy.maximumFPS) { problem in
                logger.warning("frames from the daemon: \(problem); trying again in a second")
            }
        } catch {
            return fail(error.message, status: .ioError)
        }
        defer { relay.close() }
        let forwarder: DaemonCommandForwarder
        do throws(LightShowError) {
            forwarder = try DaemonCommandForwarder(path: settings.socketPath)
        } catch {
            return fail(error.message, status: .ioError)
        }
        defer { forwarder.close() }
        let server = WebServer(
            options: WebServer.Options(
                host: settings.host, port: settings.port, extraHosts: settings.extraHosts, token: settings.token, limits: settings.limits
            ),
            routes: WebServer.Routes(
                handler: forwarder, events: relay.events, metrics: { await forwarder.metrics($0) },
                viewers: ViewerTally { relay.want($0) }
            ),
            logger: logger
        )
        let port: Int
        do {
            port = try await server.start()
        } catch {
            return fail("cannot listen on \(settings.host):\(settings.port): \(error)", status: .ioError)
        }
        guard answer(["listening": .number(Double(port))]) else {
            await server.stop()
            return ExitStatus.ioError.rawValue
        }
        // Start-up faulted in most of the program's code (fault-around); serving needs a small part of it.
        ResidentCode.releaseStartupPages()
        do {
            try DedicatedThread.start(name: "ls-web-stdin") {
                // Nothing more comes after the settings; whatever does is dropped, a chunk at a time.
                var chunk = [UInt8](repeating: 0, count: 4096)
                while case .bytes? = try? FileDescriptorIO.read(0, into: &chunk) {}
                _ = endings.tryPush("standard input closed")
            }
        } catch {
            logger.error("\(error.message)")
        }
        let reason = (try? await endings.next()) ?? "stopped"
        logger.info("stopping: \(reason)")
        await server.stop()
        return ExitStatus.ok.rawValue
    }

    /// Says why on standard output (for the daemon) and standard error (for people); returns the status.
    private static func fail(_ message: String, status: ExitStatus) -> Int32 {
        _ = answer(["error": .string(message)])
        let line = Array("lightshow-web: \(message)\n".utf8)
        _ = try? FileDescriptorIO.writeAll(2, line, kind: .file)
        return status.rawValue
    }

    /// One line to the daemon; false when it can't be written (the daemon is gone).
    private static func answer(_ value: JSONValue) -> Bool {
        (try? FileDescriptorIO.writeAll(1, value.line, kind: .file)) == .complete
    }

    /// The first line of `fd` without its newline (empty at once-empty end of file); throws past `limit` bytes.
    private static func readLine(from fd: Int32, limit: Int) throws(LightShowError) -> [UInt8] {
        var line: [UInt8] = []
        var byte: [UInt8] = [0]
        // A byte at a time: nothing after the newline may be taken from the descriptor, whose end is the stop signal.
        while true {
            let outcome: FileDescriptorIO.ReadOutcome
            do {
                outcome = try FileDescriptorIO.read(fd, into: &byte)
            } catch {
                throw LightShowError("\(error)", exitStatus: .ioError)
            }
            switch outcome {
            case .bytes: break
            case .endOfFile, .wouldBlock: return line
            }
            if byte[0] == UInt8(ascii: "\n") { return line }
            line.append(byte[0])
            guard line.count <= limit else { throw LightShowError("a settings line longer than \(limit) bytes", exitStatus: .usage) }
        }
    }
}
