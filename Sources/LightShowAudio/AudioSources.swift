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
    public static func open(
        _ spec: InputSpec,
        pcmFormat: PCMFormat = .mpdDefault,
        pacing: Pacing = .natural,
        duration: Double? = nil
    ) throws -> any AudioSource {
        throw LightShowError("input \(spec) is not supported by this build yet", exitStatus: .usage)
    }
}
