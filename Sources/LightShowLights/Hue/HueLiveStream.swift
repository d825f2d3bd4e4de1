/// An established stream to an area: the DTLS session, the area's id and which band each channel shows. Lives in
/// the worker's mailbox and is used only under its lock, by one thread at a time: the lights' sender writes each
/// paced frame into it at once (a DTLS record on a non-blocking socket never waits), the worker takes it out to
/// close it.
final class HueLiveStream: @unchecked Sendable {
    private let session: DTLSSession
    private let areaID: [UInt8]
    /// Channel id and the band's index into the frame (0 bass, 1 mid, 2 treble).
    private let bands: [(id: UInt8, band: Int)]
    private var sequence: UInt8 = 0

    init(session: DTLSSession, areaID: [UInt8], bands: [(id: UInt8, band: Int)]) {
        self.session = session
        self.areaID = areaID
        self.bands = bands
    }

    /// Sends `frame` (bass, mid, treble as 9 bytes) as one HueStream message, with every channel but `only` black
    /// when it is given (`lights test`); false when the socket buffer was full and the message dropped. Throws when
    /// the peer is gone.
    func send(_ frame: [UInt8], only: Int? = nil) throws(DTLSFailure) -> Bool {
        var channels = channels(frame)
        if let only {
            for index in channels.indices where Int(channels[index].id) != only {
                channels[index] = HueStreamMessage.Channel(id: channels[index].id, red: 0, green: 0, blue: 0)
            }
        }
        let message = HueStreamMessage.encode(areaID: areaID, sequence: sequence, channels: channels)
        sequence &+= 1
        let written = try session.write(message)
        try session.checkPeer()
        return written
    }

    /// Each channel in its band's colour, 8 bits widened to 16.
    private func channels(_ frame: [UInt8]) -> [HueStreamMessage.Channel] {
        bands.map { channel in
            let offset = channel.band * 3
            guard offset + 2 < frame.count else { return HueStreamMessage.Channel(id: channel.id, red: 0, green: 0, blue: 0) }
            return HueStreamMessage.Channel(
                id: channel.id, red: UInt16(frame[offset]) * 257, green: UInt16(frame[offset + 1]) * 257, blue: UInt16(frame[offset + 2]) * 257
            )
        }
    }
}
