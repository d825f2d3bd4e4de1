import Hummingbird
import HTTPTypes
import LightShowControl
import NIOCore

/// Answers each request that passed the gate: the page, `/metrics`, and control commands through the same
/// handler and the same reply JSON as the control socket.
struct WebResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let policy: PolicyBox
    let routes: WebServer.Routes
    let maxBodyBytes: Int
    let refusals: WebRefusals
    /// The server's own counts, for `/metrics`.
    let counts: @Sendable () -> WebServerCounts

    func respond(to request: Request, context: Context) async throws -> Response {
        let decision = policy.current.decide(WebRequestPolicy.Request(
            method: request.method.rawValue, target: request.head.path ?? "/", host: request.head.authority,
            origin: request.headers[.origin], authorization: request.headers[.authorization],
            upgradesToWebSocket: request.headers[.upgrade]?.lowercased() == "websocket"
        ))
        switch decision {
        case .failure(let rejection):
            return refusal(rejection)
        case .success(.page):
            return Self.response(200, contentType: "text/html; charset=utf-8", body: request.method == .head ? [] : WebPage.html)
        case .success(.metrics):
            guard let text = await routes.metrics(counts()) else {
                return refusal(WebRejection(503, "the daemon did not answer; try again"))
            }
            return Self.response(200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(text.utf8))
        case .success(.frames):
            return refusal(WebRejection(400, "WebSocket handshake refused: check Sec-WebSocket-Key and Sec-WebSocket-Version 13"))
        case .success(.command(let command)):
            var request = request
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: maxBodyBytes)
            } catch {
                return refusal(WebRejection(413, "request body larger than \(maxBodyBytes) bytes"))
            }
            switch WebRequestPolicy.arguments(fromBody: Array(buffer: body)) {
            case .failure(let rejection):
                refusals.record(rejection)
                return Self.response(rejection.status, contentType: "application/json", body: ControlRequest.replyLine(id: .null, .failure(rejection.message)))
            case .success(let arguments):
                let reply = await routes.handler.handle(command, arguments: arguments)
                return Self.response(
                    WebRequestPolicy.status(for: command, reply), contentType: "application/json",
                    body: ControlRequest.replyLine(id: .null, reply)
                )
            }
        }
    }

    /// Counts and answers a refusal.
    func refusal(_ rejection: WebRejection) -> Response {
        refusals.record(rejection)
        return Self.refusal(rejection)
    }

    static func refusal(_ rejection: WebRejection) -> Response {
        var response = response(rejection.status, contentType: "application/json", body: rejection.body)
        if let allow = rejection.allow { response.headers[.allow] = allow }
        return response
    }

    static func response(_ status: Int, contentType: String, body: [UInt8]) -> Response {
        Response(
            status: HTTPResponse.Status(code: status),
            headers: [.contentType: contentType, .contentLength: String(body.count), .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }
}
