import LightShowCore

/// A now-playing source whose I/O all runs on one `PlayerThread` (MPD, MPRIS): its news, start, stop and
/// forwarded commands are the thread's.
protocol PlayerThreadClient: NowPlayingSource {
    var thread: PlayerThread { get }
    /// The client's work, on its thread until `stop()`; finishes `events` on the way out.
    func run()
}

extension PlayerThreadClient {
    /// The client's news, in order. Finishes after `stop()`.
    public var events: AsyncStream<NowPlayingEvent> { thread.events }

    /// Starts following the player on the client's thread. Call once; later calls do nothing.
    public func start() {
        thread.start { [self] in run() }
    }

    /// Stops the client: its thread leaves any wait at once, closes its connection, and `events` finishes.
    public func stop() {
        thread.stop()
    }

    /// Sends play, pause or stop to the player on the client's thread (at most a few queued; a burst keeps the
    /// newest; none kept while the player is away).
    public func forward(_ command: UserCommand) {
        thread.forward(command)
    }

    var continuation: AsyncStream<NowPlayingEvent>.Continuation { thread.continuation }
}
