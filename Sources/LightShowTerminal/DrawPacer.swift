import LightShowCore

/// Decides when a new frame is drawn, so drawing follows the audio without wasting draws.
///
/// - A frame on time is drawn at once.
/// - A frame that comes hard on the heels of the last draw (within `settle`: the tail of an audio chunk that
///   reached us in two pieces) is held: the next frame, due a chunk later, supersedes it, and it is drawn by
///   `holdLimit` after the last draw only if none comes.
/// - A longer burst (catching up after a stall) is spread out to the frame rate: a `TokenBucket` that refills at
///   `framesPerSecond` and holds two draws.
///
/// Times are monotonic nanoseconds.
public struct DrawPacer: Sendable {
    public enum Decision: Equatable, Sendable {
        case draw
        /// Not now: draw at this time unless a newer frame is drawn first.
        case hold(until: UInt64)
        /// Not now: the rate is spent; draw at this time.
        case wait(until: UInt64)
    }

    private let settle: UInt64
    private let holdLimit: UInt64
    private var rate: TokenBucket
    private var lastDraw: UInt64?

    /// `settle` defaults to a quarter of a frame; `holdLimit` to 100 ms, about the longest a viewer can miss a
    /// change without seeing it late.
    public init(framesPerSecond: Double, settle: UInt64? = nil, holdLimit: UInt64 = 100_000_000) {
        let framesPerSecond = max(1, framesPerSecond)
        self.settle = settle ?? UInt64(1e9 / framesPerSecond / 4)
        self.holdLimit = holdLimit
        rate = TokenBucket(perSecond: framesPerSecond, burst: 2)
    }

    /// A new frame at `now`: whether to draw it, and if not, when.
    public mutating func offer(at now: UInt64) -> Decision {
        if let last = lastDraw, now >= last, now - last < settle {
            return .hold(until: last + holdLimit)
        }
        if let due = rate.take(at: now) { return .wait(until: due) }
        lastDraw = now
        return .draw
    }

    /// A held or waiting frame was drawn at `now`, when its time came.
    public mutating func drew(at now: UInt64) {
        rate.spend(at: now)
        lastDraw = now
    }
}
