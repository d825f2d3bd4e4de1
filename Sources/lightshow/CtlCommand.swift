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
            let exchange = Exchange(
                path: try await global.controlSocketPath(explicit: socket), command: command, fps: fps, json: json,
                timeoutSeconds: DurationText.seconds(parsing: timeout) ?? 10
            )
            // The client blocks: it waits on a thread of its own, never on the cooperative pool.
            try await DedicatedThread.run(name: "ls-ctl") { () throws(LightShowError) in try exchange.run() }
        }
    }

    /// One command and what ctl prints of its answer.
    private struct Exchange: Sendable {
        let path: String
        let command: ControlCommand
        let fps: Double?
        let json: Bool
        let timeoutSeconds: Double

        func run() throws(LightShowError) {
            let client = try ControlClient.connect(to: path, timeoutSeconds: timeoutSeconds)
            if command == .subscribe { return try copy(client.subscribe(fps: fps)) }
            let reply: JSONValue
            do {
                reply = try client.request(command.rawValue)
            } catch {
                throw LightShowError("\(command.rawValue): \(error)", exitStatus: .ioError)
            }
            switch ControlReply(reply: reply) {
            case .failure(let message):
                if json { print(CtlCommand.safe(reply.description)) }
                let status: ExitStatus = command == .reload ? .config : .dataError
                throw LightShowError("\(command.rawValue): \(CtlCommand.safe(message))", exitStatus: status)
            case .success(let result):
                if json {
                    print(CtlCommand.safe(reply.description))
                } else if command == .metrics, let text = result["text"]?.stringValue {
                    print(CtlCommand.safe(text), terminator: "")
                } else if command == .status, case .object = result {
                    for line in StatusSummary.lines(result) { print(CtlCommand.safe(line)) }
                } else {
                    for line in CtlCommand.describe(result) { print(CtlCommand.safe(line)) }
                }
            }
        }

        /// Copies the event stream to stdout, a line at a time, until the daemon or the reader closes it.
        private func copy(_ stream: ControlEventStream) throws(LightShowError) {
            let output = StandardOutputWriter(immediate: true)
            while !output.isClosed {
                let line: [UInt8]?
                do {
                    line = try stream.nextLine()
                } catch {
                    throw LightShowError("subscribe: \(error)", exitStatus: .ioError)
                }
                guard let line else { return }
                // Unbuffered: a reader on a pipe sees each event as it comes.
                output.buffer += Array(CtlCommand.safe(String(decoding: line, as: UTF8.self)).utf8)
                output.buffer.append(UInt8(ascii: "\n"))
                do {
                    try output.frameDone()
                } catch {
                    throw LightShowError("standard output: \(error)", exitStatus: .ioError)
                }
            }
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
