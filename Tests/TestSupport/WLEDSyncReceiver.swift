import Foundation

/// A WLED device's ears for the tests: a Python program that receives UDP (on 127.0.0.1 at a port the kernel picks,
/// or on WLED's group joined on an interface's address) for a fixed time, stamping each datagram with
/// CLOCK_MONOTONIC as it arrives, and writes `SECONDS HEX` lines to a file that `packets()` decodes with
/// `WLEDSyncDecoder`. Run through `launcher` (a network namespace's `command`) when given.
public final class WLEDSyncReceiver: @unchecked Sendable {
    public let port: Int
    private let process: Process
    private let output: String

    static let script = """
    import socket, sys, time
    address, port, group, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    if group:
        sock.bind(("0.0.0.0", port))
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, socket.inet_aton(group) + socket.inet_aton(address))
    else:
        sock.bind((address, port))
    print("ready", sock.getsockname()[1], flush=True)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sock.settimeout(max(0.01, end - time.monotonic()))
        try:
            data = sock.recv(65536)
        except socket.timeout:
            continue
        print(time.monotonic_ns() / 1e9, data.hex(), flush=True)
    """

    /// Receives for `seconds` on 127.0.0.1 (a free port), or with `group` on `port` joined at `address`.
    public init(
        seconds: Double, address: String = "127.0.0.1", port: Int = 0, group: String = "", directory: TemporaryDirectory,
        launcher: ([String]) -> [String] = { $0 }
    ) throws {
        output = directory.file("wled-received.txt")
        let scriptPath = try directory.write("wled-receive.py", Data(Self.script.utf8))
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process = try Launch.start(
            launcher(["/usr/bin/python3", scriptPath, address, String(port), group, String(seconds)]),
            standardOutput: handle, standardError: FileHandle.standardError
        )
        var ready: Int?
        let output = output
        _ = Wait.until(timeout: 15) {
            let first = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").first ?? ""
            ready = first.hasPrefix("ready ") ? Int(first.dropFirst(6)) : nil
            return ready != nil
        }
        guard let ready else {
            process.terminate()
            throw ExternalTool.Failure(description: "the WLED sync receiver did not start")
        }
        self.port = ready
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    public var isRunning: Bool { process.isRunning }

    /// How many datagrams have arrived so far.
    public var count: Int {
        max(0, (((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").count) - 1)
    }

    /// Everything received so far, decoded (times in seconds of CLOCK_MONOTONIC). Complete lines only.
    public func packets() throws -> [WLEDSyncDecoder.Packet] {
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).dropFirst()
        let complete = text.hasSuffix("\n") ? Array(lines) : Array(lines.dropLast())
        return try WLEDSyncDecoder.decode(lines: complete.joined(separator: "\n") + "\n")
    }

    /// Waits for the receiving time to end (at most `timeout` seconds).
    public func finish(timeout: Double) async -> Bool {
        await OffPool.until(timeout: timeout) { !self.process.isRunning }
    }
}
