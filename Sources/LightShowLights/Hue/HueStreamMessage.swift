/// One HueStream 2.0 message: what the Entertainment API takes over DTLS, one a frame.
///
/// `HueStream`, version 2.0, a sequence number, two reserved bytes, the colour space (0 = RGB), a reserved byte,
/// the entertainment configuration's 36-character id, then 7 bytes a channel: its id, then red, green and blue as
/// 16-bit big-endian values.
enum HueStreamMessage {
    static let protocolName = Array("HueStream".utf8)
    static let headerLength = 16
    static let areaIDLength = 36
    static let bytesPerChannel = 7
    /// The most channels an entertainment configuration has.
    static let maximumChannels = 20

    struct Channel: Equatable, Sendable {
        var id: UInt8
        var red: UInt16
        var green: UInt16
        var blue: UInt16
    }

    /// The message for `channels` of area `areaID` (36 ASCII bytes: the area lookup checks that).
    static func encode(areaID: [UInt8], sequence: UInt8, channels: [Channel]) -> [UInt8] {
        var bytes = protocolName
        bytes.reserveCapacity(headerLength + areaIDLength + channels.count * bytesPerChannel)
        bytes += [0x02, 0x00, sequence, 0x00, 0x00, 0x00, 0x00]
        bytes += areaID.prefix(areaIDLength)
        for channel in channels.prefix(maximumChannels) {
            bytes.append(channel.id)
            for value in [channel.red, channel.green, channel.blue] {
                bytes.append(UInt8(value >> 8))
                bytes.append(UInt8(value & 0xFF))
            }
        }
        return bytes
    }
}
