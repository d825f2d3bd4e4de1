import LightShowCore
import Synchronization

/// Decides on the source's reader thread which blocks reach the engine, so a sleeping show costs no wake-up of
/// the engine's task per block: while stopped and dark, silent blocks (or, when sound can't wake the show, all
/// blocks) end here, counted so frame times stay on the audio timeline.
final class SleepGate: Sendable {
    enum Mode: UInt8 {
        /// Every block goes to the engine.
        case awake
        /// Asleep; a block with sound goes to the engine, which may wake.
        case watching
        /// Asleep under a command (user or MPD stop): no block matters until the state changes.
        case held
    }

    private let mode = Atomic<UInt8>(Mode.awake.rawValue)
    private let thresholdBits: Atomic<UInt64>
    private let skipped = Atomic<Int64>(0)

    init(thresholdDBFS: Double) {
        thresholdBits = Atomic(thresholdDBFS.bitPattern)
    }

    func set(_ newMode: Mode) {
        mode.store(newMode.rawValue, ordering: .relaxed)
    }

    var thresholdDBFS: Double {
        get { Double(bitPattern: thresholdBits.load(ordering: .relaxed)) }
        set { thresholdBits.store(newValue.bitPattern, ordering: .relaxed) }
    }

    /// Counts a block the analyser will never see.
    func skip(_ block: SampleBlock) {
        skipped.add(Int64(block.frameCount), ordering: .relaxed)
    }

    /// Frames skipped so far: how far the analyser's timeline lags the input's.
    var skippedFrames: Int64 { skipped.load(ordering: .relaxed) }

    /// On the reader thread: true when `block` must go to the engine; otherwise it is counted as skipped.
    func admits(_ block: SampleBlock) -> Bool {
        switch Mode(rawValue: mode.load(ordering: .relaxed)) ?? .awake {
        case .awake:
            return true
        case .watching:
            if block.isLouder(thanDBFS: thresholdDBFS) { return true }
        case .held:
            break
        }
        skip(block)
        return false
    }
}
