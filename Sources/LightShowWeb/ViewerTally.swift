import Synchronization

/// The WebSocket viewers of `/api/frames`: how many watch now and the frames they dropped
/// (`ShowEventPacer.takeDropped`), for the metrics, kept for the life of the web server's process. The first viewer
/// to come and the last to go are told to `onWatching`, so the daemon's frames are relayed only while someone
/// watches.
public final class ViewerTally: Sendable {
    private let watching = Atomic(0)
    private let dropped = Atomic<UInt64>(0)
    private let onWatching: @Sendable (Bool) -> Void

    public init(onWatching: @escaping @Sendable (Bool) -> Void = { _ in }) {
        self.onWatching = onWatching
    }

    public var viewers: Int { watching.load(ordering: .relaxed) }
    public var droppedFrames: UInt64 { dropped.load(ordering: .relaxed) }

    func joined() {
        if watching.add(1, ordering: .relaxed).newValue == 1 { onWatching(true) }
    }

    func left() {
        if watching.subtract(1, ordering: .relaxed).newValue == 0 { onWatching(false) }
    }

    func add(dropped frames: UInt64) {
        if frames > 0 { dropped.wrappingAdd(frames, ordering: .relaxed) }
    }
}
