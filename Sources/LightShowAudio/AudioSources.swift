public import LightShowCore

/// How fast a source delivers audio.
public enum Pacing: Sendable, Equatable {
    /// Each input at its own pace: files as fast as possible, the demo in real time, live inputs as they arrive.
    case natural
    /// Files and the demo paced in real time too (`analyze --realtime`).
    case realtime
    /// Files and the demo as fast as possible (offline rendering with `record`).
    case offline
}

/// Opens the source an `InputSpec` names.
public enum AudioSources {
    /// - Parameter pcmFormat: layout of raw PCM for `fifo:` and `stdin`.
    /// - Parameter duration: for the demo, seconds to produce before finishing (nil = endless).
    /// - Parameter waitsForServer: for `pulse`, wait for a sound server that isn't there yet (the daemon) rather
    ///   than fail (exit 74).
    /// - Throws: a `UserFacingError` (exit 66 for a missing input, 65 for undecodable data, 74 for a device that can't open).
    public static func open(
        _ spec: InputSpec,
        pcmFormat: PCMFormat = .mpdDefault,
        pacing: Pacing = .natural,
        duration: Double? = nil,
        waitsForServer: Bool = false
    ) throws -> any AudioSource {
        switch spec {
        case .file(let path):
            return try FileSource(path: path, spec: spec, realtime: pacing == .realtime)
        case .fifo(let path):
            return try RawPCMSource(path: path, spec: spec, format: pcmFormat)
        case .stdin:
            return try RawPCMSource(path: nil, spec: spec, format: pcmFormat)
        case .demo:
            return try DemoSource(realtime: pacing != .offline, duration: duration)
        case .alsa(let device):
            return try ALSACaptureSource(device: device)
        case .pulse(let source):
            return try PulseCaptureSource(source: source, waitsForServer: waitsForServer)
        }
    }
}
