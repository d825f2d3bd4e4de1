import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing
@testable import LightShowWeb

/// The frames made once for every viewer read back by NIOWebSocket's own decoder, at each size of length field.
@Suite struct WebSocketTextFrameTests {
    @Test(arguments: [0, 5, 125, 126, 300, 65_535, 65_536, 70_000])
    func aTextMessageOfAnyLengthDecodesToItsBytes(length: Int) async throws {
        let payload = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        let decoder = try await NIOAsyncTestingChannel { channel in
            try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: 1 << 17)))
        }
        try await decoder.writeInbound(WebSocketTextFrame.encode(payload, allocator: ByteBufferAllocator()))
        let frame = try #require(try await decoder.readInbound(as: WebSocketFrame.self))
        #expect(frame.fin && frame.opcode == .text && frame.maskKey == nil && frame.rsv1 == false)
        #expect(Array(buffer: frame.unmaskedData) == payload)
        #expect(try await decoder.readInbound(as: WebSocketFrame.self) == nil)
    }
}
