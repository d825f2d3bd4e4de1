import Hummingbird
import HTTPTypes
import NIOCore

/// Answers each request from the routes the daemon gave.
struct WebResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let routes: WebServer.Routes

    func respond(to request: Request, context: Context) async throws -> Response {
        switch (request.method, request.uri.path) {
        case (.get, "/"), (.head, "/"):
            return Self.response(.ok, contentType: "text/html; charset=utf-8", body: WebPage.html)
        case (.get, "/metrics"):
            return Self.response(.ok, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(routes.metrics().utf8))
        default:
            return Self.response(.notFound, contentType: "application/json", body: Array(#"{"ok":false,"error":"not found"}"#.utf8))
        }
    }

    static func response(_ status: HTTPResponse.Status, contentType: String, body: [UInt8]) -> Response {
        Response(
            status: status,
            headers: [.contentType: contentType, .contentLength: String(body.count)],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }
}
