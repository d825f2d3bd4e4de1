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
        if not line.strip():
            continue
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
}
