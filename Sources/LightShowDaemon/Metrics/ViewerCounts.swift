/// One kind of viewer (control-socket subscribers, WebSocket viewers) for the metrics: how many watch now and the
/// frames they missed. Per kind, not per viewer: a label per viewer would make a new series for every connection,
/// an unbounded number that Prometheus keeps for weeks; the count beside the total tells a rate per viewer.
public struct ViewerCounts: Sendable, Equatable {
    public var viewers: Int
    public var droppedFrames: UInt64

    public init(viewers: Int, droppedFrames: UInt64) {
        self.viewers = viewers
        self.droppedFrames = droppedFrames
    }
}
