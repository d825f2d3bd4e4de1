import FuzzDriver
import Logging
@testable import LightShowControl
@testable import LightShowWeb
import NIOCore
import NIOEmbedded
import NIOHTTP1

// The web server's request path before anything is forwarded: bytes from a client through NIO's HTTP/1 decoder
// into `RequestGate`, with the gate's refusals encoded back. What passes the gate is recorded, and the invariant
// is checked on every input: a request reaches the handlers only whole (head, body, end, in one go), within the
// body cap, and never after a refusal.

/// Records what the gate lets through.
final class Downstream: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    var parts: [HTTPServerRequestPart] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        parts.append(unwrapInboundIn(data))
    }
}

let limits = WebLimits(maxConnections: 4, requestTimeoutSeconds: 10, maxBodyBytes: 512, maxHeaderBytes: 2048)
let policy = WebRequestPolicy(listenHost: "127.0.0.1", port: 8490, token: nil)
var quiet = Logger(label: "fuzz")
quiet.logLevel = .critical
let refusals = WebRefusals(logger: quiet)

FuzzDriver.main { bytes in
    let channel = EmbeddedChannel()
    let downstream = Downstream()
    let gate = RequestGate(policy: policy, limits: limits, connections: ConnectionCounter(limit: limits.maxConnections), refusals: refusals)
    do {
        try channel.pipeline.syncOperations.addHandler(HTTPResponseEncoder())
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes)))
        try channel.pipeline.syncOperations.addHandler(gate)
        try channel.pipeline.syncOperations.addHandler(downstream)
    } catch {
        fatalError("pipeline: \(error)")
    }
    // The input arrives in pieces, as from a socket: the first byte picks the piece size.
    let piece = Int(bytes.first ?? 0) % 64 + 1
    var index = 0
    var before = 0
    while index < bytes.count {
        let end = min(bytes.count, index + piece)
        _ = try? channel.writeInbound(channel.allocator.buffer(bytes: bytes[index..<end]))
        index = end
        // Whatever came through in this piece is whole requests: a head, a body within the cap, an end.
        var position = before
        let parts = downstream.parts
        while position < parts.count {
            guard case .head = parts[position] else { fatalError("a request went on without its head first") }
            position += 1
            var body = 0
            while position < parts.count, case .body(let buffer) = parts[position] {
                body += buffer.readableBytes
                position += 1
            }
            guard body <= limits.maxBodyBytes else { fatalError("a body of \(body) bytes went on past the cap") }
            guard position < parts.count, case .end = parts[position] else { fatalError("a request went on before its end came") }
            position += 1
        }
        before = parts.count
    }
    _ = try? channel.finish()
    // Runs what is still scheduled (a request's deadline) and drops the loop's tasks, which hold the channel.
    try? channel.embeddedEventLoop.syncShutdownGracefully()
}
