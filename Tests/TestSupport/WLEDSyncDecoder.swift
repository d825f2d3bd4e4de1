import Foundation

/// WLED audio sync packets decoded by Python's `struct`, independently of our encoder: exactly 44 bytes as
/// `<6s2xffBB16s2xff` (header, sampleRaw, sampleSmth, samplePeak, frame counter, 16 GEQ bytes, FFT_Magnitude,
/// FFT_MajorPeak), which is how WLED's own struct lays them out.
public enum WLEDSyncDecoder {
    public struct Packet: Decodable, Sendable {
        /// Arrival, seconds on whatever clock the caller gave (CLOCK_MONOTONIC, or from the audio's start).
        public var time: Double
        /// Bytes received; every other field is nil unless it is 44.
        public var size: Int
        public var header: String?
        public var sampleRaw: Double?
        public var sampleSmth: Double?
        public var samplePeak: Int?
        public var counter: Int?
        public var fft: [Int]?
        public var magnitude: Double?
        public var majorPeak: Double?

        /// Every field zero: what a stop sends.
        public var isSilent: Bool {
            sampleRaw == 0 && sampleSmth == 0 && samplePeak == 0 && (fft ?? [1]).allSatisfy { $0 == 0 }
                && magnitude == 0 && majorPeak == 0
        }
    }

    static let script = """
    import json, struct, sys
    for line in sys.stdin:
        time, _, text = line.strip().partition(" ")
        data = bytes.fromhex(text)
        packet = {"time": float(time), "size": len(data)}
        if len(data) == 44:
            header, raw, smth, peak, counter, fft, magnitude, major = struct.unpack("<6s2xffBB16s2xff", data)
            packet.update(header=header.decode("latin-1"), sampleRaw=raw, sampleSmth=smth, samplePeak=peak,
                          counter=counter, fft=list(fft), magnitude=magnitude, majorPeak=major)
        print(json.dumps(packet))
    """

    /// Decodes `(seconds, bytes)` pairs, in order.
    public static func decode(_ datagrams: [(time: Double, bytes: [UInt8])]) throws -> [Packet] {
        let input = datagrams.map { "\($0.time) " + $0.bytes.map { String(format: "%02x", $0) }.joined() }.joined(separator: "\n")
        return try decode(lines: input + "\n")
    }

    /// Decodes lines of `SECONDS HEX` (what `WLEDSyncPeer` and the namespace receiver write).
    public static func decode(lines: String) throws -> [Packet] {
        let result = try Launch.run(["/usr/bin/python3", "-c", script], stdin: Data(lines.utf8))
        guard result.status == 0 else { throw ExternalTool.Failure(description: "WLED sync decoder: \(result.stderr)") }
        let decoder = JSONDecoder()
        return try result.stdout.split(separator: "\n").map { try decoder.decode(Packet.self, from: Data($0.utf8)) }
    }

    /// Python that receives UDP on `address:port` (joining `group` on the interface at `address` when given) for
    /// `seconds` and prints each datagram as `SECONDS HEX`, seconds from CLOCK_MONOTONIC; `ready` on stderr once
    /// bound.
    public static let receiverScript = """
    import socket, struct, sys, time
    address, port, group, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    if group:
        sock.bind(("0.0.0.0", port))
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, socket.inet_aton(group) + socket.inet_aton(address))
    else:
        sock.bind((address, port))
    print("ready", file=sys.stderr, flush=True)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sock.settimeout(max(0.01, end - time.monotonic()))
        try:
            data = sock.recv(65536)
        except socket.timeout:
            continue
        print(time.monotonic_ns() / 1e9, data.hex(), flush=True)
    """
}
