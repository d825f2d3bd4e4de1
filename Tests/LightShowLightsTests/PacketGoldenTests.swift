import Testing
@testable import LightShowLights

/// Each builder against its standard (DDP, ANSI E1.31-2018, Art-Net 4), with the expected bytes written out field by field.
@Suite struct PacketGoldenTests {
    @Test func ddpSinglePacketFrame() {
        let packets = DDPPacket.frame([0xFF, 0x00, 0x10, 0x01, 0x02, 0x03], offset: 30, sequence: 5)
        let expected: [UInt8] = [
            0x41,                   // version 1 (0x40) | PUSH (0x01): the only packet is the last
            0x05,                   // sequence, low nibble
            0x0B,                   // data type: RGB, 8 bits a channel
            0x01,                   // destination: default output device
            0x00, 0x00, 0x00, 0x1E, // data offset 30, big-endian
            0x00, 0x06,             // data length 6, big-endian
            0xFF, 0x00, 0x10, 0x01, 0x02, 0x03,
        ]
        #expect(packets == [expected])
    }

    @Test func ddpSplitsAt1440BytesWithPushOnlyOnTheLast() {
        let data = (0..<1500).map { UInt8(truncatingIfNeeded: $0) }
        let packets = DDPPacket.frame(data, offset: 0, sequence: 0x1F)
        #expect(packets.count == 2)
        #expect(Array(packets[0].prefix(10)) == [0x40, 0x0F, 0x0B, 0x01, 0, 0, 0, 0, 0x05, 0xA0]) // 1440 bytes at 0
        #expect(Array(packets[1].prefix(10)) == [0x41, 0x0F, 0x0B, 0x01, 0, 0, 0x05, 0xA0, 0x00, 0x3C]) // 60 at 1440
        #expect(Array(packets[0].dropFirst(10)) == Array(data[0..<1440]))
        #expect(Array(packets[1].dropFirst(10)) == Array(data[1440...]))
    }

    @Test func ddpEmptyFrameHasNoPackets() {
        #expect(DDPPacket.frame([], offset: 0, sequence: 1).isEmpty)
    }

    @Test func sacnFullUniverse() {
        let cid: [UInt8] = Array(0x10...0x1F)
        var slots = [UInt8](repeating: 0, count: 512)
        slots[0] = 0xAA
        slots[511] = 0xBB
        let packet = SACNPacket.data(cid: cid, sourceName: "lightshow", priority: 100, sequence: 7, universe: 0x0102, slots: slots)
        var expected: [UInt8] = []
        // Root layer.
        expected += [0x00, 0x10]                                   // preamble size
        expected += [0x00, 0x00]                                   // postamble size
        expected += [0x41, 0x53, 0x43, 0x2D, 0x45, 0x31, 0x2E, 0x31, 0x37, 0x00, 0x00, 0x00] // "ASC-E1.17\0\0\0"
        expected += [0x72, 0x6E]                                   // flags 0x7, length 638 - 16 = 622
        expected += [0x00, 0x00, 0x00, 0x04]                       // vector: E1.31 data
        expected += cid
        // Framing layer, byte 38.
        expected += [0x72, 0x58]                                   // flags 0x7, length 638 - 38 = 600
        expected += [0x00, 0x00, 0x00, 0x02]                       // vector: data packet
        expected += Array("lightshow".utf8) + [UInt8](repeating: 0, count: 55) // source name, 64 bytes
        expected += [100]                                          // priority
        expected += [0x00, 0x00]                                   // synchronization address
        expected += [7]                                            // sequence
        expected += [0x00]                                         // options
        expected += [0x01, 0x02]                                   // universe 258
        // DMP layer, byte 115.
        expected += [0x72, 0x0B]                                   // flags 0x7, length 638 - 115 = 523
        expected += [0x02]                                         // vector: set property
        expected += [0xA1]                                         // address and data type
        expected += [0x00, 0x00]                                   // first property address
        expected += [0x00, 0x01]                                   // address increment
        expected += [0x02, 0x01]                                   // property value count: 512 + 1
        expected += [0x00]                                         // DMX start code
        expected += slots
        #expect(packet.count == 638)
        #expect(packet == expected)
    }

    @Test func sacnStreamTerminatedShortUniverseAndNameLimits() {
        let name = String(repeating: "é", count: 40) // 80 bytes of UTF-8: cut at a character boundary to 62
        let packet = SACNPacket.data(
            cid: [UInt8](repeating: 1, count: 16), sourceName: name, priority: 255, sequence: 255,
            options: SACNPacket.streamTerminated, universe: 63999, slots: [1, 2, 3]
        )
        #expect(packet.count == 126 + 3)
        #expect(Array(packet[16...17]) == [0x70, 0x71])   // 129 - 16 = 113
        #expect(Array(packet[38...39]) == [0x70, 0x5B])   // 129 - 38 = 91
        #expect(Array(packet[115...116]) == [0x70, 0x0E]) // 129 - 115 = 14
        #expect(Array(packet[44..<106]) == Array(String(repeating: "é", count: 31).utf8))
        #expect(Array(packet[106..<108]) == [0, 0])       // NUL-padded; never unterminated
        #expect(packet[108] == 200)                       // priority capped at 200
        #expect(packet[111] == 255)
        #expect(packet[112] == 0x40)                      // options: stream terminated
        #expect(Array(packet[113...114]) == [0xF9, 0xFF]) // 63999
        #expect(Array(packet[123...124]) == [0x00, 0x04]) // 3 slots + start code
        #expect(Array(packet[125...]) == [0, 1, 2, 3])
    }

    @Test func sacnMulticastGroup() {
        #expect(SACNPacket.multicastGroup(universe: 1) == "239.255.0.1")
        #expect(SACNPacket.multicastGroup(universe: 258) == "239.255.1.2")
        #expect(SACNPacket.multicastGroup(universe: 63999) == "239.255.249.255")
    }

    @Test func artDmx() {
        let packet = ArtDmxPacket.dmx(portAddress: 0x1234, sequence: 9, physical: 2, data: [10, 20, 30, 40])
        let expected: [UInt8] = [
            0x41, 0x72, 0x74, 0x2D, 0x4E, 0x65, 0x74, 0x00, // "Art-Net\0"
            0x00, 0x50,                                     // OpCode 0x5000, little-endian
            0x00, 0x0E,                                     // protocol version 14, big-endian
            0x09,                                           // sequence
            0x02,                                           // physical
            0x34,                                           // SubUni: low 8 bits of the port address
            0x12,                                           // Net: high 7 bits
            0x00, 0x04,                                     // length, big-endian
            10, 20, 30, 40,
        ]
        #expect(packet == expected)
    }

    @Test func artDmxLengthIsEvenAndAtLeastTwoAndAtMost512() {
        let odd = ArtDmxPacket.dmx(portAddress: 0x7FFF, sequence: 1, data: [1, 2, 3])
        #expect(Array(odd[14...17]) == [0xFF, 0x7F, 0x00, 0x04])
        #expect(Array(odd[18...]) == [1, 2, 3, 0])
        let one = ArtDmxPacket.dmx(portAddress: 0, sequence: 1, data: [5])
        #expect(Array(one[16...]) == [0x00, 0x02, 5, 0])
        let long = ArtDmxPacket.dmx(portAddress: 0, sequence: 1, data: [UInt8](repeating: 7, count: 600))
        #expect(long.count == 18 + 512)
        #expect(Array(long[16...17]) == [0x02, 0x00])
    }
}
