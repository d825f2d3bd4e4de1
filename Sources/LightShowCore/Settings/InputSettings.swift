/// `[input]`: where audio comes from.
public struct InputSettings: Equatable, Sendable {
    /// Any input SPEC (`alsa:default`, `file:…`, `fifo:…`, `stdin`, `demo`).
    public var source: InputSpec = .alsa(device: "default")
    /// Layout of raw PCM for `fifo:` and `stdin`.
    public var pcmFormat: PCMFormat = .mpdDefault

    public init() {}
}
