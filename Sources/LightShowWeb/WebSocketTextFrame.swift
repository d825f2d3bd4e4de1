import NIOCore

/// A server's WebSocket text message as the bytes that go on the wire (RFC 6455 §5.2: FIN, the text opcode, the
/// payload length, no mask), made once per event and written as is to every viewer: the frame encoder's path would
/// make a header buffer per viewer per frame.
enum WebSocketTextFrame {
    static func encode(_ payload: some Collection<UInt8>, allocator: ByteBufferAllocator) -> ByteBuffer {
        let length = payload.count
        var buffer = allocator.buffer(capacity: length + 10)
        buffer.writeInteger(UInt8(0x81))
        switch length {
        case 0...125:
            buffer.writeInteger(UInt8(length))
        case 126...0xFFFF:
            buffer.writeInteger(UInt8(126))
            buffer.writeInteger(UInt16(length))
        default:
            buffer.writeInteger(UInt8(127))
            buffer.writeInteger(UInt64(length))
        }
        buffer.writeBytes(payload)
        return buffer
    }
}
