import FuzzDriver
@testable import LightShowControl

// Control-protocol lines as the server reads them (requests) and as a viewer reads the daemon's stream (frame and
// scene events), through the one JSON parser.
FuzzDriver.main { bytes in
    let line = Array(bytes)
    switch ControlRequest.parse(line) {
    case .success(let request): _ = request.replyLine(.failure("fuzz"))
    case .failure(let invalid): _ = ControlRequest.replyLine(id: invalid.id, .failure(invalid.message))
    }
    if let value = try? JSONParser.parse(line) {
        _ = ShowFrameEvent.decode(value)
        _ = ShowSceneEvent.decode(value)
        _ = value.line
    }
}
