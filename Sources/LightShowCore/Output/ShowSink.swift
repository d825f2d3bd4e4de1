/// An output of the show: the `analyze` writer, the terminal viewer, the PNG recorder, control-socket
/// subscribers, network lights. Every sink gets the same frames from the same engine, so a change to the state
/// machine, the fade or the levels reaches all of them at once.
///
/// The engine calls a sink with its state locked, never twice at once, on whichever thread produced the frame
/// (a live source's reader, or the engine's event task for a command or a timer). A sink that could block on
/// something slow (a socket, a terminal) hands the frame on instead; only an offline recording, which runs on
/// the file reader's own thread, may wait for its encoders.
public protocol ShowSink: AnyObject, Sendable {
    /// Whether the sink gets `audio(_:)`: only one that keeps the audio (a recording) says yes. When no sink does,
    /// the engine passes no block on, which is most of what an idle show costs.
    var takesAudio: Bool { get }
    /// Each block of audio the show takes in, before the frames made from it; only when `takesAudio`.
    func audio(_ block: SampleBlock) throws
    /// One frame of the show.
    func show(_ frame: ShowFrame) throws
    /// After each block or event that produced frames: a viewer that only wants the newest draws here.
    func framesDone()
}

extension ShowSink {
    public var takesAudio: Bool { false }
    public func audio(_ block: SampleBlock) throws {}
    public func framesDone() {}
}
