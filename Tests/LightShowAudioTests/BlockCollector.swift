import Foundation
import LightShowAudio
import LightShowCore
import TestSupport

/// Reads a source's blocks in a task and keeps them for the test to inspect while it runs.
final class BlockCollector: @unchecked Sendable {
    struct Arrival {
        var block: SampleBlock
        var receivedAt: Date
    }

    private let lock = NSLock()
    private var arrivals: [Arrival] = []
    private var ending: (any Error)?
    private var ended = false
    private var task: Task<Void, Never>?

    init(_ source: any AudioSource) {
        let stream = source.blocks()
        task = Task { [weak self] in
            do {
                for try await block in stream {
                    guard let self else { return }
                    self.lock.withLock { self.arrivals.append(Arrival(block: block, receivedAt: Date())) }
                }
                self?.lock.withLock { self?.ended = true }
            } catch {
                self?.lock.withLock {
                    self?.ending = error
                    self?.ended = true
                }
            }
        }
    }

    var blocks: [SampleBlock] { lock.withLock { arrivals.map(\.block) } }
    var timedBlocks: [Arrival] { lock.withLock { arrivals } }
    var frameCount: Int { lock.withLock { arrivals.reduce(0) { $0 + $1.block.frameCount } } }
    var isFinished: Bool { lock.withLock { ended } }
    var error: (any Error)? { lock.withLock { ending } }

    /// All samples so far, interleaved.
    var samples: [Float] { lock.withLock { arrivals.flatMap(\.block.samples) } }

    /// The newest `count` samples (interleaved), without copying the rest.
    func newestSamples(_ count: Int) -> [Float] {
        lock.withLock {
            var chunks: [[Float]] = []
            var total = 0
            for arrival in arrivals.reversed() where total < count {
                chunks.append(arrival.block.samples)
                total += arrival.block.samples.count
            }
            return Array(chunks.reversed().joined().suffix(count))
        }
    }

    /// Waits until `frames` frames arrived; false on timeout.
    func waitForFrames(_ frames: Int, seconds: Double = 30) async -> Bool {
        await Wait.until(within: seconds) { frameCount >= frames }
    }

    /// Waits until the stream ended; false on timeout.
    func waitForEnd(seconds: Double = 30) async -> Bool {
        await Wait.until(within: seconds) { isFinished }
    }

    /// Stops reading: cancels the consuming task, which closes the source.
    func stop() { task?.cancel() }

    deinit { task?.cancel() }
}
