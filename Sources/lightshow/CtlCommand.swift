public import ArgumentParser
import LightShowConfig
import LightShowCore
import LightShowControl
import LightShowSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

extension ControlCommand: ExpressibleByArgument {}

struct CtlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Control a running daemon through its control socket.",
        discussion: """
        Waits for the daemon's answer. `status` prints a summary (state and why, input, title, levels, outputs, viewers, MQTT, web); `--json` prints the reply as it is. `reload` exits 78 and prints the errors when the new config is bad (the daemon keeps running on the old one). `subscribe` prints the event stream as JSON lines, and `metrics` the Prometheus text.

        Examples:
          lightshow ctl status
          lightshow ctl pause
          lightshow ctl --json status
          lightshow ctl reload
          lightshow ctl metrics
          lightshow ctl subscribe --fps 10
        """
    )

    @OptionGroup var global: GlobalOptions

    @Option(
        help: ArgumentHelp(
            "Control socket (default: [control] socket, else $RUNTIME_DIRECTORY/control.sock, else $XDG_RUNTIME_DIR/lightshow/control.sock).",
            valueName: "PATH"
        ),
        completion: .file()
    )
    var socket: String?

    @Flag(help: "Print the daemon's JSON reply as it is (status: every key, instead of the summary).")
    var json = false

    @Option(help: "Frames per second for subscribe (1…240).")
    var fps: Double?

    @Option(help: ArgumentHelp("How long to wait for the daemon, e.g. 10s or 500ms.", valueName: "DURATION"))
    var timeout = "10s"

    /// A day: long enough for any reply, short enough for every clock and socket option to hold it.
    static let longestTimeout = 86_400.0

    @Argument(help: "The command to send.")
    var command: ControlCommand

    func validate() throws {
        guard let seconds = DurationText.seconds(parsing: timeout), seconds > 0, seconds <= Self.longestTimeout else {
            throw ValidationError(
                "--timeout: expected \(DurationText.expectedSyntax), from 1ms to 24h, found \"\(SafeText.sanitized(timeout, limit: 40))\""
            )
        }
    }

    func run() async throws {
        try await reportingUserErrors {
            let path = try socketPath()
            let client = try connect(path)
            var arguments: JSONObject = [:]
            if let fps { arguments["fps"] = .number(fps) }
            let reply = try ask(client, arguments: arguments, path: path)
            guard reply["ok"] == true else {
                if json { print(Self.safe(reply.description)) }
                let message = Self.safe(reply["error"]?.stringValue ?? "\(reply)")
                let status: ExitStatus = command == .reload ? .config : .dataError
                throw LightShowError("\(command.rawValue): \(message)", exitStatus: status)
            }
            if command == .subscribe {
                try stream(client, path: path)
            } else if json {
                print(Self.safe(reply.description))
            } else if command == .metrics, let text = reply["result"]?["text"]?.stringValue {
                print(Self.safe(text), terminator: "")
            } else if command == .status, let status = reply["result"], case .object = status {
                for line in StatusSummary.lines(status) { print(Self.safe(line)) }
            } else {
                for line in Self.describe(reply["result"] ?? .null) { print(Self.safe(line)) }
            }
        }
    }

    private func socketPath() throws -> String {
        try global.controlSocketPath(explicit: socket)
    }

    private func connect(_ path: String) throws -> ControlClient {
        do {
            return try ControlClient(path: path, timeoutSeconds: DurationText.seconds(parsing: timeout) ?? 10)
        } catch {
            if error.code == ENOENT || error.code == ECONNREFUSED {
                throw LightShowError("no lightshow daemon is listening on \(path) (\(error))", exitStatus: .noInput)
            }
            throw LightShowError("cannot reach the daemon: \(error)", exitStatus: .ioError)
        }
    }

    private func ask(_ client: ControlClient, arguments: JSONObject, path: String) throws -> JSONValue {
        do {
            return try client.request(command.rawValue, arguments: arguments)
        } catch {
            throw LightShowError("\(command.rawValue): \(error)", exitStatus: .ioError)
        }
    }

    /// Copies the event stream to stdout, a line at a time, until the daemon or the reader closes it.
    private func stream(_ client: ControlClient, path: String) throws {
        client.setTimeout(nil)
        let output = StandardOutputWriter(immediate: true)
        while !output.isClosed {
            let line: [UInt8]?
            do {
                line = try client.readLine()
            } catch {
                throw LightShowError("subscribe: \(error)", exitStatus: .ioError)
            }
            guard let line else { return }
            // Unbuffered: a reader on a pipe sees each event as it comes.
            output.buffer += Array(Self.safe(String(decoding: line, as: UTF8.self)).utf8)
            output.buffer.append(UInt8(ascii: "\n"))
            try output.frameDone()
        }
    }

    /// What the daemon sends is shown without control characters: a hostile peer's `ESC]0;…` must not reach the
    /// terminal. JSON escapes C0 controls itself, but C1 ones (U+0080–U+009F) are valid unescaped.
    /// Line breaks are kept (a reload's errors come one per line).
    static func safe(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { SafeText.sanitized(String($0), limit: ControlClient.maximumLineBytes) }
            .joined(separator: "\n")
    }

    /// `key: value` lines for people; nested objects as dotted keys.
    static func describe(_ value: JSONValue, prefix: String = "") -> [String] {
        guard case .object(let object) = value else {
            return value == .null ? ["ok"] : [prefix.isEmpty ? text(value) : "\(prefix): \(text(value))"]
        }
        if object.members.isEmpty { return ["ok"] }
        return object.members.flatMap { member -> [String] in
            let key = prefix.isEmpty ? member.key : "\(prefix).\(member.key)"
            if case .object = member.value { return describe(member.value, prefix: key) }
            return ["\(key): \(text(member.value))"]
        }
    }

    private static func text(_ value: JSONValue) -> String {
        value.stringValue ?? value.description
    }
}
