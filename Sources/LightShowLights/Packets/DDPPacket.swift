/// DDP (Distributed Display Protocol, as WLED speaks it) data packets: a 10-byte header and at most 1440 bytes
/// (480 RGB pixels) of data each, so a long strip spans several packets; the last one of a frame carries PUSH,
/// which tells the controller to show what it has.
public enum DDPPacket {
    public static let headerSize = 10
    /// 480 RGB pixels: keeps a packet within a 1500-byte Ethernet MTU.
    public static let maximumData = 1440
    public static let port = 4048

    static let version1: UInt8 = 0x40
    static let push: UInt8 = 0x01
    /// Type RGB, 8 bits a channel. (Older senders put the legacy 0x01 here; WLED reads both.)
    static let dataTypeRGB8: UInt8 = 0x0B
    /// The controller's default output device.
    static let destinationDisplay: UInt8 = 1

    /// The packets of one frame: `data` (RGB bytes) placed at byte `offset` of the controller's buffer.
    /// `sequence` goes in the low nibble (1…15; 0 means "not sequenced" to a receiver).
    public static func frame(_ data: [UInt8], offset: Int, sequence: UInt8) -> [[UInt8]] {
        guard !data.isEmpty else { return [] }
        var packets: [[UInt8]] = []
        packets.reserveCapacity((data.count + maximumData - 1) / maximumData)
        var chunkStart = 0
        while chunkStart < data.count {
            let chunkEnd = min(data.count, chunkStart + maximumData)
            var packet: [UInt8] = []
            packet.reserveCapacity(headerSize + chunkEnd - chunkStart)
            packet.append(version1 | (chunkEnd == data.count ? push : 0))
            packet.append(sequence & 0x0F)
            packet.append(dataTypeRGB8)
            packet.append(destinationDisplay)
            packet.append(bigEndian: UInt32(truncatingIfNeeded: offset + chunkStart))
            packet.append(bigEndian: UInt16(chunkEnd - chunkStart))
            packet.append(contentsOf: data[chunkStart..<chunkEnd])
            packets.append(packet)
            chunkStart = chunkEnd
        }
        return packets
    }
}
