import Foundation
import LightShowControl
import TestSupport

/// A command handler with a little playback state, as the engine will have.
actor RecordingHandler: ControlCommandHandler {
    private(set) var received: [ControlCommand] = []
    private var state = "playing"

    func handle(_ command: ControlCommand, arguments: JSONObject) async -> ControlReply {
        received.append(command)
        switch command {
        case .status: return .success(["state": .string(state)])
        case .play: state = "playing"
        case .pause: state = "paused"
        case .stop: state = "stopped"
        case .toggle: state = state == "playing" ? "paused" : "playing"
        case .reload: return .failure("f.toml:2: error: bands.bass.upper: 30000 is above the axis maximum 20000")
        case .subscribe: return .failure("subscribe reached the handler")
        case .setBand, .setColor, .setBrightness, .setInput: return .success(.object(arguments))
        case .metrics: return .success(["text": "lightshow_frames_total 1\n"])
        }
        return .success(["state": .string(state)])
    }
}

/// A running server on a private socket, shut down when released.
final class ServerFixture: @unchecked Sendable {
    let directory: TemporaryDirectory
    let path: String
    let handler = RecordingHandler()
    let server: ControlServer<RecordingHandler>

    /// `idleSeconds` is long by default: a loaded machine must not close a test's quiet client under it.
    init(maxClients: Int = 16, idleSeconds: Double = 120) throws {
        directory = try TemporaryDirectory("ls-ctl")
        path = directory.file("control.sock")
        server = try ControlServer(path: path, handler: handler, options: .init(maxClients: maxClients, idleSeconds: idleSeconds))
        server.start()
    }

    func client() async throws -> AsyncClient {
        try await AsyncClient(path: path)
    }

    deinit { server.shutdown() }
}

/// A `ControlClient` whose blocking calls run on a queue of their own, so tests waiting for replies never
/// occupy the cooperative pool that the server's command handler needs.
final class AsyncClient: @unchecked Sendable {
    private let queue = DispatchQueue(label: "test-control-client")
    private var client: ControlClient?

    init(path: String) async throws {
        client = try await perform { _ in try ControlClient(path: path, timeoutSeconds: 60) }
    }

    func request(_ command: String, arguments: JSONObject = [:]) async throws -> JSONValue {
        try await perform { try $0!.request(command, arguments: arguments) }
    }

    func send(_ text: String) async throws {
        try await perform { try $0!.send(Array(text.utf8)) }
    }

    func readText() async throws -> String? {
        try await perform { try $0!.readLine().map { String(decoding: $0, as: UTF8.self) } }
    }

    func finishSending() async throws {
        try await perform { $0!.finishSending() }
    }

    /// Reads frame events until `last` arrives or `timeout` passes, all on the client's queue so the pace
    /// measured is the server's, not the test pool's. Returns the sequences seen and the seconds it took.
    func readFrames(until last: Int, timeout: Double = 60) async throws -> (sequences: [Int], seconds: Double) {
        try await perform { client in
            let started = Date()
            var sequences: [Int] = []
            while sequences.last ?? 0 < last, Date().timeIntervalSince(started) < timeout {
                guard let frame = try client!.readJSON(), let seq = frame.sequence else { break }
                sequences.append(seq)
            }
            return (sequences, Date().timeIntervalSince(started))
        }
    }

    func readLine() async throws -> [UInt8]? {
        try await perform { try $0!.readLine() }
    }

    func readJSON() async throws -> JSONValue? {
        try await perform { try $0!.readJSON() }
    }

    /// Writes `bytes` from a thread of its own while this client goes on reading: the server stops reading
    /// a client that doesn't read its replies. `send` touches no state of the client, so this is safe.
    func sendInBackground(_ bytes: [UInt8]) {
        nonisolated(unsafe) let sender = queue.sync { client }
        Thread { try? sender?.send(bytes) }.start()
    }

    /// Closes the connection.
    func close() async {
        _ = try? await perform { _ in self.client = nil }
    }

    /// Runs `body` on the client's queue (all access to `client` happens there).
    private func perform<T>(_ body: @escaping @Sendable (ControlClient?) throws -> T) async throws -> T {
        nonisolated(unsafe) var result: Result<T, any Error>?
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            queue.async {
                result = Result { try body(self.client) }
                continuation.resume(with: result!)
            }
        }
    }
}

extension JSONValue {
    /// The `seq` of a test frame event.
    var sequence: Int? { self["seq"]?.numberValue.map { Int($0) } }
}
