import LightShowControl
import LightShowCore
import NIOCore
import NIOHTTP1

/// The first look at every request on a connection, before Hummingbird's handlers and the WebSocket upgrade: the
/// connection cap (503), `WebRequestPolicy`'s refusals (Host, route, Origin, token), the body cap (413), malformed or
/// oversized heads (400, 431) and the deadline for a request to arrive whole (408; no slowloris holds a slot). Each
/// refusal is a JSON body and a closed connection. A request goes on to the handlers only once it has arrived whole
/// and within its limits, so a refused request never runs. Owned by the connection's event loop.
final class RequestGate: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let policy: WebRequestPolicy
    private let limits: WebLimits
    private let connections: ConnectionCounter
    private let refusals: WebRefusals
    private var overLimit = false
    /// A request's head came and its end has not.
    private var requestOpen = false
    /// A response's head went out and its end has not.
    private var responding = false
    private var bodyBytes = 0
    /// Refused: the rest of the input is dropped while the refusal goes out.
    private var refused = false
    private var deadline: Scheduled<Void>?

    init(policy: WebRequestPolicy, limits: WebLimits, connections: ConnectionCounter, refusals: WebRefusals) {
        self.policy = policy
        self.limits = limits
        self.connections = connections
        self.refusals = refusals
    }

    func handlerAdded(context: ChannelHandlerContext) {
        overLimit = !connections.add()
        context.channel.closeFuture.whenComplete { [connections] _ in connections.remove() }
        arm(context, seconds: limits.requestTimeoutSeconds)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            arm(context, seconds: limits.requestTimeoutSeconds)
            if let rejection = check(head) {
                refuse(context, rejection)
                return
            }
            requestOpen = true
            held = HeldRequest(head: head, body: context.channel.allocator.buffer(capacity: 0))
        case .body(var buffer):
            guard held != nil else { return }
            if held!.body.readableBytes + buffer.readableBytes > limits.maxBodyBytes {
                refuse(context, WebRejection(413, "request body larger than \(limits.maxBodyBytes) bytes"))
                return
            }
            held!.body.writeBuffer(&buffer)
        case .end(let trailers):
            guard let request = held else { return }
            held = nil
            requestOpen = false
            deadline?.cancel()
            deadline = nil
            // Only now, whole and within its limits, does the request go on: a refused one never ran.
            context.fireChannelRead(wrapInboundOut(.head(request.head)))
            if request.body.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(.body(request.body))) }
            context.fireChannelRead(wrapInboundOut(.end(trailers)))
            // A viewer's upgrade goes on to the WebSocket handler, which takes the connection over: this gate's
            // work is done (its deadline would cut the viewer off).
            if Self.upgradesToWebSocket(request.head) {
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            }
        }
    }

    /// A request that passed the checks, held until its end has come.
    private struct HeldRequest {
        var head: HTTPRequestHead
        var body: ByteBuffer
    }

    private var held: HeldRequest?

    private static func upgradesToWebSocket(_ head: HTTPRequestHead) -> Bool {
        head.headers[canonicalForm: "upgrade"].contains { $0.lowercased() == "websocket" }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head: responding = true
        case .body: break
        case .end:
            responding = false
            hadRequest = true
            if !requestOpen { arm(context, seconds: limits.idleTimeoutSeconds) }
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        guard !refused else { return }
        if parseError == .headerOverflow {
            refuse(context, WebRejection(431, "request line and headers larger than \(limits.maxHeaderBytes) bytes"))
        } else {
            refuse(context, WebRejection(400, "malformed HTTP request (\(parseError))"))
        }
    }

    // MARK: - Decisions

    private func check(_ head: HTTPRequestHead) -> WebRejection? {
        if overLimit { return WebRejection(503, "too many connections (limit \(limits.maxConnections)); try again later") }
        let hosts = head.headers[canonicalForm: "host"]
        guard hosts.count <= 1 else { return WebRejection(400, "more than one Host header") }
        if let length = head.headers.first(name: "content-length"), let bytes = Int(length), bytes > limits.maxBodyBytes {
            return WebRejection(413, "request body larger than \(limits.maxBodyBytes) bytes")
        }
        let request = WebRequestPolicy.Request(
            method: head.method.rawValue, target: head.uri, host: hosts.first.map(String.init),
            origin: head.headers.first(name: "origin"), authorization: head.headers.first(name: "authorization"),
            upgradesToWebSocket: Self.upgradesToWebSocket(head)
        )
        if case .failure(let rejection) = policy.decide(request) { return rejection }
        if request.upgradesToWebSocket, let problem = WebSocketHandshake.problem(
            key: head.headers.first(name: "sec-websocket-key"), version: head.headers.first(name: "sec-websocket-version")
        ) {
            return WebRejection(400, "WebSocket handshake refused: \(problem)")
        }
        return nil
    }

    /// A request must arrive whole (or the next one begin) within `seconds`.
    private func arm(_ context: ChannelHandlerContext, seconds: Double) {
        deadline?.cancel()
        let nanoseconds = Int64(saturating: seconds * 1e9)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
            let (gate, context) = loopBound.value
            gate.deadlinePassed(context)
        }
    }

    private func deadlinePassed(_ context: ChannelHandlerContext) {
        deadline = nil
        guard !refused, !responding else { return }
        if overLimit {
            refuse(context, WebRejection(503, "too many connections (limit \(limits.maxConnections)); try again later"))
        } else if requestOpen || !hadRequest {
            // A request still arriving, or none whole since the connection opened: a slow or silent client.
            refuse(context, WebRejection(408, "request not received whole within \(DurationText.format(seconds: limits.requestTimeoutSeconds))"))
        } else {
            // An idle keep-alive connection: closed without a word.
            context.close(promise: nil)
        }
    }

    /// A response was written whole on this connection.
    private var hadRequest = false

    /// Answers with `rejection` and closes, unless a response is already under way (then only closes).
    private func refuse(_ context: ChannelHandlerContext, _ rejection: WebRejection) {
        refused = true
        held = nil
        refusals.record(rejection)
        deadline?.cancel()
        deadline = nil
        guard !responding, context.channel.isActive else {
            context.close(promise: nil)
            return
        }
        let body = rejection.body
        var headers = HTTPHeaders([
            ("Content-Type", "application/json"), ("Content-Length", String(body.count)), ("Connection", "close"),
        ])
        if let allow = rejection.allow { headers.add(name: "Allow", value: allow) }
        let head = HTTPResponseHead(
            version: .http1_1, status: HTTPResponseStatus(statusCode: rejection.status), headers: headers
        )
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        let sent = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: sent)
        let channel = context.channel
        sent.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }
}
