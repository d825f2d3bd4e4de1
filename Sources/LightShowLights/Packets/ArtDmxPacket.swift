/// Art-Net ArtDmx packets: `Art-Net\0`, OpCode 0x5000 little-endian (the protocol's one exception), protocol
/// version 14, sequence, physical port, the 15-bit port address as SubUni and Net, then an even length of
/// 2…512 data bytes.
public enum ArtDmxPacket {
    public static let port = 6454
    public static let portAddresses: ClosedRange<Int> = 0...32767
    static let opCodeDmx: UInt16 = 0x5000
    static let protocolVersion: UInt16 = 14

    /// One packet for `portAddress` (net·256 + subnet·16 + universe). `data` is cut to 512 and padded with a zero
    /// to an even length of at least 2. `sequence` 0 turns the receiver's reordering off; senders use 1…255.
    public static func dmx(portAddress: UInt16, sequence: UInt8, physical: UInt8 = 0, data: [UInt8]) -> [UInt8] {
        var length = min(data.count, 512)
        length = max(2, length + length % 2)
        var packet: [UInt8] = Array("Art-Net".utf8) + [0]
        packet.reserveCapacity(18 + length)
        packet.append(UInt8(opCodeDmx & 0xFF))
        packet.append(UInt8(opCodeDmx >> 8))
        packet.append(bigEndian: protocolVersion)
        packet.append(sequence)
        packet.append(physical)
        packet.append(UInt8(portAddress & 0xFF)) // SubUni: subnet and universe
        packet.append(UInt8((portAddress >> 8) & 0x7F)) // Net
        packet.append(bigEndian: UInt16(length))
        packet.append(contentsOf: data.prefix(length))
        packet.append(contentsOf: repeatElement(0, count: length - min(length, data.count)))
        return packet
    }
}
