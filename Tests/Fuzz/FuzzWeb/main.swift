import FuzzDriver
import LightShowControl
@testable import LightShowWeb

// What the web server decides from a request before any I/O: the route for the method and target, Host, Origin,
// the token (header or query) and the fps query; then the body as a command's arguments. The input is split on
// newlines into method, target, Host, Origin, Authorization and body, so every field is reached.
let policies = [
    WebRequestPolicy(listenHost: "127.0.0.1", port: 8490, token: nil),
    WebRequestPolicy(listenHost: "0.0.0.0", port: 8490, extraHosts: ["lightshow.local", "fe80::1"], token: "0123456789abcdef"),
]

FuzzDriver.main { bytes in
    let fields = Array(bytes).split(separator: 10, maxSplits: 5, omittingEmptySubsequences: false)
    func field(_ index: Int) -> String? {
        index < fields.count ? String(decoding: fields[index], as: UTF8.self) : nil
    }
    let request = WebRequestPolicy.Request(
        method: field(0) ?? "GET", target: field(1) ?? "/", host: field(2), origin: field(3), authorization: field(4),
        upgradesToWebSocket: bytes.first.map { $0 & 1 == 1 } ?? false
    )
    for policy in policies {
        switch policy.decide(request) {
        case .success(.command(let command)):
            _ = WebRequestPolicy.status(for: command, .failure("the daemon is stopping"))
        case .success: break
        case .failure(let rejection): _ = rejection.body
        }
    }
    let body = fields.count > 5 ? Array(fields[5]) : []
    if case .failure(let rejection) = WebRequestPolicy.arguments(fromBody: body) {
        _ = ControlRequest.replyLine(id: .null, .failure(rejection.message))
    }
}
