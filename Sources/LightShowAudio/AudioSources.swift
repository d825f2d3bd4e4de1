public import LightShowCore

/// Opens the source an `InputSpec` names.
public enum AudioSources {
    /// - Parameter pcmFormat: layout of raw PCM for `fifo:` and `stdin`.
    /// - Parameter realtime: pace a file input in real time instead of reading it as fast as possible.
    public static func open(_ spec: InputSpec, pcmFormat: PCMFormat = .mpdDefault, realtime: Bool = false) throws -> any AudioSource {
        throw LightShowError("input \(spec) is not supported by this build yet", exitStatus: .usage)
    }
}
