import Foundation

/// The other end of a daemon that reads a fifo and sends WLED audio sync to 127.0.0.1: a Python program that binds
/// a UDP port, plays a 44.1 kHz s16 stereo file into the fifo paced to the monotonic clock (10 ms chunks), keeps
/// receiving for a while after, and writes every datagram as `SECONDS HEX` with seconds counted from the moment the
/// first chunk went in. `WLEDSyncDecoder.decode(lines:)` reads what it wrote.
public final class WLEDSyncPeer: @unchecked Sendable {
    public let port: Int
    private let process: Process
    private let output: String

    static let script = """
    import os, socket, sys, threading, time
    audio, fifo, output, tail = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(0.1)
    print(sock.getsockname()[1], flush=True)
    received, running = [], True
    def receive():
        while running:
            try:
                data = sock.recv(65536)
            except socket.timeout:
                continue
            received.append((time.monotonic_ns(), data))
    thread = threading.Thread(target=receive, daemon=True)
    thread.start()
    payload = open(audio, "rb").read()
    fd = os.open(fifo, os.O_WRONLY)
    chunk = 441 * 4
    start = time.monotonic_ns()
    for i in range(0, (len(payload) + chunk - 1) // chunk):
        delay = (start + i * 10_000_000 - time.monotonic_ns()) / 1e9
        if delay > 0:
            time.sleep(delay)
        os.write(fd, payload[i * chunk:(i + 1) * chunk])
    time.sleep(tail)
    running = False
    thread.join()
    os.close(fd)
    with open(output + ".tmp", "w") as f:
        for stamp, data in received:
            f.write(f"{(stamp - start) / 1e9} {data.hex()}\\n")
    os.rename(output + ".tmp", output)
    """

    /// Starts the peer on `audio` (raw s16le stereo 44.1 kHz) and `fifo`; it waits for a reader of the fifo, then
    /// plays, then receives `tail` seconds more.
    public init(audio: String, fifo: String, tail: Double, directory: TemporaryDirectory) throws {
        output = directory.file("wled-peer.txt")
        let scriptPath = try directory.write("wled-peer.py", Data(Self.script.utf8))
        let pipe = Pipe()
        process = try Launch.start(
            ["/usr/bin/python3", scriptPath, audio, fifo, output, String(tail)], standardOutput: pipe,
            standardError: FileHandle.standardError
        )
        let line = pipe.fileHandleForReading.availableLine(timeout: 10)
        guard let port = line.flatMap({ Int($0) }) else {
            process.terminate()
            throw ExternalTool.Failure(description: "the WLED sync peer did not report its port")
        }
        self.port = port
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Every packet received, decoded, once the peer has finished (nil if it doesn't within `timeout` seconds).
    public func packets(timeout: Double) async throws -> [WLEDSyncDecoder.Packet]? {
        let path = output
        guard await OffPool.until(timeout: timeout, { FileManager.default.fileExists(atPath: path) }) else { return nil }
        return try WLEDSyncDecoder.decode(lines: String(contentsOfFile: path, encoding: .utf8))
    }
}

extension FileHandle {
    /// The first line written to this pipe within `timeout` seconds (read on a thread of its own).
    func availableLine(timeout: Double) -> String? {
        let box = LineBox()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var bytes: [UInt8] = []
            while true {
                let data = self.readData(ofLength: 1)
                guard let byte = data.first, byte != 0x0A else { break }
                bytes.append(byte)
            }
            box.set(String(decoding: bytes, as: UTF8.self))
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return box.get()
    }
}

private final class LineBox: @unchecked Sendable {
    private let lock = NSLock()
    private var line: String?
    func set(_ value: String) { lock.withLock { line = value } }
    func get() -> String? { lock.withLock { line } }
}
