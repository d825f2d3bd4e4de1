import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real DTLS 1.2 PSK server: `openssl s_server -dtls1_2 -nocert -psk … -psk_identity …` on 127.0.0.1, writing
/// the decrypted records to a file, where HueStream messages are split on their header. Its standard input stays
/// open (it stops when that closes). Killed when released.
public final class DTLSPeer: @unchecked Sendable {
    public let port: UInt16
    public let directory: TemporaryDirectory
    private let key: String
    private let identity: String
    private var process: Process?
    private var input: Pipe?
    private var starts = 0

    public init(key: String = HueBridge.clientKey, identity: String = HueBridge.applicationID, port: UInt16? = nil) throws {
        directory = try TemporaryDirectory("ls-dtls-peer")
        self.key = key
        self.identity = identity
        self.port = try port ?? Self.freeUDPPort()
        try start()
    }

    deinit { stop() }

    /// Starts the server (again, on the same port) with a new output file, and waits until it has bound its port.
    public func start() throws {
        starts += 1
        let input = Pipe()
        let output = directory.file("stream-\(starts).bin")
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        process = try Launch.start(
            [
                "openssl", "s_server", "-dtls1_2", "-accept", "127.0.0.1:\(port)", "-nocert", "-psk", key, "-psk_identity", identity,
                "-cipher", "PSK-AES128-GCM-SHA256", "-quiet",
            ],
            standardInput: input, standardOutput: FileHandle(forWritingAtPath: output),
            standardError: FileHandle(forWritingAtPath: directory.write("peer-\(starts).log", Data()))
        )
        self.input = input
        guard Wait.until(timeout: 10, { Self.isBound(port: port) }) else {
            throw ExternalTool.Failure(description: "openssl s_server did not bind UDP \(port): \(log)")
        }
    }

    /// SIGKILL: gone at once, as a bridge that loses power.
    public func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
        input = nil
    }

    public var log: String {
        (try? String(contentsOfFile: directory.file("peer-\(starts).log"), encoding: .utf8)) ?? ""
    }

    /// What the current server decrypted so far.
    public var received: [UInt8] {
        (try? Array(Data(contentsOf: URL(fileURLWithPath: directory.file("stream-\(starts).bin"))))) ?? []
    }

    /// The HueStream messages received so far, split on their header.
    public var messages: [HueStreamRecord] {
        HueStreamRecord.split(received)
    }

    /// Whether something is bound to UDP `port` on 127.0.0.1: a bind there fails.
    static func isBound(port: UInt16) -> Bool {
        let probe = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result != 0
    }

    /// A UDP port on 127.0.0.1 nobody uses right now.
    public static func freeUDPPort() throws -> UInt16 {
        let receiver = try UDPReceiver()
        return UInt16(truncatingIfNeeded: receiver.port)
    }
}

/// One HueStream message as received: its fields, decoded independently of the sender's encoder.
public struct HueStreamRecord: Sendable, Equatable {
    public var major: UInt8
    public var minor: UInt8
    public var sequence: UInt8
    public var colorSpace: UInt8
    public var areaID: String
    /// Channel id → red, green, blue.
    public var channels: [UInt8: [UInt16]]

    /// Splits back-to-back messages on the `HueStream` header; a cut-off last message is left out.
    public static func split(_ bytes: [UInt8]) -> [HueStreamRecord] {
        let header = Array("HueStream".utf8)
        var starts: [Int] = []
        var index = 0
        while index + header.count <= bytes.count {
            if bytes[index] == header[0], Array(bytes[index..<index + header.count]) == header {
                starts.append(index)
                index += header.count
            } else {
                index += 1
            }
        }
        return starts.enumerated().compactMap { offset, start in
            let end = offset + 1 < starts.count ? starts[offset + 1] : bytes.count
            return HueStreamRecord(Array(bytes[start..<end]))
        }
    }

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 52, (bytes.count - 52) % 7 == 0 else { return nil }
        major = bytes[9]
        minor = bytes[10]
        sequence = bytes[11]
        colorSpace = bytes[14]
        areaID = String(decoding: bytes[16..<52], as: UTF8.self)
        channels = [:]
        var index = 52
        while index + 7 <= bytes.count {
            let value = { (at: Int) in UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) }
            channels[bytes[index]] = [value(index + 1), value(index + 3), value(index + 5)]
            index += 7
        }
    }

    /// Whether every channel is black.
    public var isBlack: Bool { channels.values.allSatisfy { $0.allSatisfy { $0 == 0 } } }
}
