/// What libpulse's callbacks tell the capture thread. They run on the mainloop thread with its lock held, so they
/// only post these; the capture thread acts on them.
enum PulseEvent: Sendable, Equatable {
    /// The context is connected and authorized.
    case ready
    /// The context failed or was terminated (the server went away, or never answered).
    case failed(String)
    /// The server's default, or its sinks or sources, changed: what to record may have changed.
    case changed
    /// The source to record now; `sink` names the sink it monitors (nil for an explicit source).
    case resolved(source: String, sink: String?)
    /// What to record can't be known now (no default sink, no such source, a transient error).
    case unresolved(String, noSuchEntity: Bool)
    /// Record stream `stream` is connected; its server-side source is `source`.
    case streamReady(stream: Int, source: String)
    /// Record stream `stream` failed or was killed (its source vanished: `DONT_MOVE` keeps it off the mic).
    case streamFailed(stream: Int, String)
    /// A device list arrived (for `lightshow devices`).
    case listed(PulseDeviceList.Part)
}
