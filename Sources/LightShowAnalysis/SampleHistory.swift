/// The newest `capacity` mono samples, contiguous so a window can be read without unwrapping a ring.
/// Appends go after the newest sample; when the spare room runs out the newest `capacity` samples
/// move back to the front (one copy per few windows' worth of audio).
struct SampleHistory {
    let capacity: Int
    private var storage: [Float]
    /// Index just past the newest sample.
    private var end: Int

    /// Starts full of zeros: before the input began there was silence.
    init(capacity: Int) {
        self.capacity = capacity
        storage = [Float](repeating: 0, count: capacity * 4)
        end = capacity
    }

    mutating func append(_ samples: UnsafeBufferPointer<Float>) {
        guard let source = samples.baseAddress, samples.count > 0 else { return }
        storage.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            if samples.count >= capacity {
                base.update(from: source + (samples.count - capacity), count: capacity)
                end = capacity
                return
            }
            if end + samples.count > buffer.count {
                base.update(from: base + (end - capacity), count: capacity)
                end = capacity
            }
            (base + end).update(from: source, count: samples.count)
            end += samples.count
        }
    }

    /// Calls `body` with the newest `count` samples (oldest first); `count ≤ capacity`.
    func withNewest<R>(_ count: Int, _ body: (UnsafePointer<Float>) -> R) -> R {
        precondition(count <= capacity, "window longer than the history")
        return storage.withUnsafeBufferPointer { body($0.baseAddress! + (end - count)) }
    }
}
