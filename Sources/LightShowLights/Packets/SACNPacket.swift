/// E1.31 (streaming ACN) data packets: root, framing and DMP layers, all big-endian (ANSI E1.31-2018).
/// A full universe is 638 bytes: 126 bytes of layers, then 512 slots.
public enum SACNPacket {
    public static let port = 5568
    public static let universes: ClosedRange<Int> = 1...63999
    public static let maximumSlots = 512
    /// Options bit: the source stops sending this universe; receivers drop it at once instead of after 2.5 s.
    public static let streamTerminated: UInt8 = 0x40

    static let rootVector: UInt32 = 0x0000_0004
    static let framingVector: UInt32 = 0x0000_0002
    static let dmpVector: UInt8 = 0x02
    /// Address type and data type: one-byte data, address increment used.
    static let dmpAddressAndDataType: UInt8 = 0xA1

    /// One data packet. `slots` holds at most 512 channel values (more are cut); `cid` is 16 bytes.
    public static func data(
        cid: [UInt8], sourceName: String, priority: UInt8, sequence: UInt8, options: UInt8 = 0,
        universe: UInt16, slots: [UInt8]
    ) -> [UInt8] {
        let slotCount = min(slots.count, maximumSlots)
        let length = 126 + slotCount
        var packet: [UInt8] = []
        packet.reserveCapacity(length)
        // Root layer.
        packet.append(bigEndian: UInt16(0x0010))
        packet.append(bigEndian: UInt16(0x0000))
        packet.append(contentsOf: Array("ASC-E1.17".utf8) + [0, 0, 0])
        packet.append(bigEndian: flagsAndLength(length - 16))
        packet.append(bigEndian: rootVector)
        packet.append(contentsOf: cid.prefix(16))
        packet.append(contentsOf: repeatElement(0, count: 16 - min(16, cid.count)))
        // Framing layer, at byte 38.
        packet.append(bigEndian: flagsAndLength(length - 38))
        packet.append(bigEndian: framingVector)
        // 63 bytes at most, so the name always ends in NUL.
        packet.append(paddedUTF8: sourceName.utf8Prefix(63), length: 64)
        packet.append(min(priority, 200))
        packet.append(bigEndian: UInt16(0)) // synchronization address: none
        packet.append(sequence)
        packet.append(options)
        packet.append(bigEndian: universe)
        // DMP layer, at byte 115.
        packet.append(bigEndian: flagsAndLength(length - 115))
        packet.append(dmpVector)
        packet.append(dmpAddressAndDataType)
        packet.append(bigEndian: UInt16(0x0000)) // first property address
        packet.append(bigEndian: UInt16(0x0001)) // address increment
        packet.append(bigEndian: UInt16(slotCount + 1))
        packet.append(0x00) // DMX start code
        packet.append(contentsOf: slots.prefix(slotCount))
        return packet
    }

    /// The multicast group of `universe`: 239.255.(u >> 8).(u & 255).
    public static func multicastGroup(universe: Int) -> String {
        "239.255.\((universe >> 8) & 0xFF).\(universe & 0xFF)"
    }

    private static func flagsAndLength(_ length: Int) -> UInt16 {
        0x7000 | UInt16(length & 0x0FFF)
    }
}

extension String {
    /// At most `count` bytes of UTF-8, cut at a character boundary so no scalar is split.
    func utf8Prefix(_ count: Int) -> String {
        guard utf8.count > count else { return self }
        var result = ""
        for character in self {
            guard result.utf8.count + character.utf8.count <= count else { break }
            result.append(character)
        }
        return result
    }
}
