/// WLED audio sync v2 packets, as the Audio Reactive usermod reads them: 44 bytes, packed, little-endian,
/// IEEE-754 floats. The header `00002\0`, two reserved bytes, `sampleRaw` and `sampleSmth` (0…255), `samplePeak`,
/// a frame counter, the 16 GEQ channels, two reserved bytes, `FFT_Magnitude` and `FFT_MajorPeak` (Hz).
/// Receivers drop any other size or header (the 40-byte layout some senders use without the padding included).
public enum WLEDSyncPacket {
    public static let port = 11988
    /// The group WLED joins by default.
    public static let multicastGroup = "239.0.0.1"
    public static let size = 44
    static let header: [UInt8] = Array("00002".utf8) + [0, 0, 0] // with the two reserved bytes
    /// Where the counter sits in a packet.
    static let counterOffset = 17

    /// What one packet carries, without its counter.
    public struct Fields: Equatable, Sendable {
        public var sampleRaw: Float = 0
        /// The volume the receiver's effects use, 0…255.
        public var sampleSmth: Float = 0
        /// 0, or 1 on a beat.
        public var samplePeak: UInt8 = 0
        public var channels = [UInt8](repeating: 0, count: 16)
        public var magnitude: Float = 0
        /// Hz; the receiver clamps it to 1…11025.
        public var majorPeak: Float = 0

        public init() {}
    }

    /// The packet's 36 bytes after the header with the counter left 0: what changes from one packet to the next
    /// (all zero for silence), which `packet(body:counter:)` completes.
    public static func body(_ fields: Fields) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size - header.count)
        bytes.append(littleEndian: fields.sampleRaw)
        bytes.append(littleEndian: fields.sampleSmth)
        bytes.append(fields.samplePeak)
        bytes.append(0) // counter
        bytes.append(contentsOf: fields.channels.prefix(16))
        bytes.append(contentsOf: repeatElement(0, count: 16 - min(16, fields.channels.count)))
        bytes.append(contentsOf: [0, 0]) // reserved
        bytes.append(littleEndian: fields.magnitude)
        bytes.append(littleEndian: fields.majorPeak)
        return bytes
    }

    /// The whole packet: header, `body` (36 bytes; more are cut, fewer padded with zeros) and `counter`.
    public static func packet(body: [UInt8], counter: UInt8) -> [UInt8] {
        var packet = header
        packet.reserveCapacity(size)
        packet.append(contentsOf: body.prefix(size - header.count))
        packet.append(contentsOf: repeatElement(0, count: size - packet.count))
        packet[counterOffset] = counter
        return packet
    }

    public static func packet(_ fields: Fields, counter: UInt8) -> [UInt8] {
        packet(body: body(fields), counter: counter)
    }
}

extension Array where Element == UInt8 {
    /// An IEEE-754 single, least significant byte first: WLED's ESP32 is little-endian and reads the struct as is.
    mutating func append(littleEndian value: Float) {
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8(truncatingIfNeeded: bits >> UInt32(shift))) }
    }
}
