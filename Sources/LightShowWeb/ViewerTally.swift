import Synchronization

/// The WebSocket viewers of `/api/frames` for the metrics: how many watch now and the frames they dropped
/// (`ShowEventPacer.takeDropped`). Owned by the daemon, so a reload that replaces the server keeps the counter.
public final class ViewerTally: Sendable {
    private let watching = Atomic(0)
    private let dropped = Atomic<UInt64>(0)

    public init() {}

    public var viewers: Int { watching.load(ordering: .relaxed) }
    public var droppedFrames: UInt64 { dropped.load(ordering: .relaxed) }

    func joined() {
        watching.add(1, ordering: .relaxed)
    }

    func left() {
        watching.subtract(1, ordering: .relaxed)
    }

    func add(dropped frames: UInt64) {
        if frames > 0 { dropped.wrappingAdd(frames, ordering: .relaxed) }
    }
}
