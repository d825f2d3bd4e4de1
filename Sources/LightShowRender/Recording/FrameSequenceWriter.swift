public import LightShowCore

#if canImport(Glibc)
import Glibc
#endif

/// Renders and encodes `ShowFrame`s into `frame_%06d.png` on every core, through a bounded queue.
/// Each frame is written under a temporary name; frames are renamed into place and listed in `frames.jsonl`
/// strictly in index order, so the directory always holds frames 0…n−1, all valid and all listed.
/// The first write error stops the recording: frames before the failed one still complete, later ones are
/// discarded, and no temporary file is left.
public final class FrameSequenceWriter: @unchecked Sendable {
    public let directory: OutputDirectory
    public let width: Int
    public let height: Int
    private let style: Scene.Style
    private let queue: BlockingQueue<ShowFrame>
    private let log: FramesLog
    private var threads: [pthread_t] = []
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    // Guarded by `mutex`.
    private var encoded: [Int: ShowFrame] = [:]
    private var nextIndex = 0
    private var failure: RecordingError?
    /// Index of the frame that failed; frames below it still go into place.
    private var failedIndex = Int.max

    /// - Parameter workers: encoding threads (default: one per core).
    public init(directory: OutputDirectory, width: Int, height: Int, style: Scene.Style, workers: Int? = nil) throws(RecordingError) {
        self.directory = directory
        self.width = width
        self.height = height
        self.style = style
        let count = max(1, workers ?? Self.coreCount)
        queue = BlockingQueue(capacity: count * 2)
        log = try FramesLog(path: directory.file(OutputDirectory.framesLogName))
        pthread_mutex_init(mutex, nil)
        for _ in 0..<count { try startWorker() }
    }

    deinit {
        queue.close(discardingPending: true)
        for thread in threads { pthread_join(thread, nil) }
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Frames renamed into place and listed so far.
    public var committedCount: Int { locked { nextIndex } }

    /// Queues the next frame (indices must run 0, 1, 2, …), suspending while the queue is full.
    /// Throws once the recording has failed; `finish()` then gives the full account.
    public func submit(_ frame: ShowFrame) async throws(RecordingError) {
        while true {
            if let failure = locked({ failure }) { throw failure }
            switch queue.tryPush(frame) {
            case .pushed:
                return
            case .closed:
                throw locked { failure } ?? RecordingError("the recording was stopped")
            case .full:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    queue.whenSpace { continuation.resume() }
                }
            }
        }
    }

    /// Queues the next frame from a thread of its own (a file's reader), waiting while the queue is full.
    /// Throws once the recording has failed; `finish()` then gives the full account.
    public func submitWaiting(_ frame: ShowFrame) throws(RecordingError) {
        if let failure = locked({ failure }) { throw failure }
        guard queue.push(frame) else {
            throw locked { failure } ?? RecordingError("the recording was stopped")
        }
    }

    /// Waits until every queued frame is on disk and listed; returns how many frames the directory holds.
    public func finish() throws(RecordingError) -> Int {
        queue.close()
        for thread in threads { pthread_join(thread, nil) }
        threads = []
        let (count, error) = locked { () -> (Int, RecordingError?) in
            for index in encoded.keys { unlink(directory.file(OutputDirectory.temporaryName(index))) }
            encoded.removeAll()
            return (nextIndex, self.failure)
        }
        if let error { throw stopped(error) }
        return count
    }

    private func stopped(_ error: RecordingError) -> RecordingError {
        let count = locked { nextIndex }
        return RecordingError("\(error.message); \(directory.stopNote(frames: count))", exitStatus: error.exitStatus)
    }

    // MARK: - Workers

    private func work() {
        let renderer = FrameRenderer()
        let encoder = PNGEncoder()
        while let frame = queue.pop() {
            if locked({ frame.index >= failedIndex }) { continue }
            let temporary = directory.file(OutputDirectory.temporaryName(frame.index))
            do {
                let scene = Scene(frame: frame, width: width, height: height, style: style)
                let bytes = try encoder.encode(renderer.render(scene))
                try FrameFile.write(bytes, to: temporary, reportedAs: directory.file(OutputDirectory.frameName(frame.index)))
                commit(frame)
            } catch let error as RecordingError {
                fail(error, at: frame.index)
            } catch {
                fail(RecordingError("cannot encode frame \(frame.index): \(error)"), at: frame.index)
            }
        }
    }

    /// Records an encoded frame and moves every frame that is now next in line into place.
    private func commit(_ frame: ShowFrame) {
        locked {
            guard frame.index < failedIndex else {
                unlink(directory.file(OutputDirectory.temporaryName(frame.index)))
                return
            }
            encoded[frame.index] = frame
            while let ready = encoded.removeValue(forKey: nextIndex) {
                let temporary = directory.file(OutputDirectory.temporaryName(ready.index))
                let final = directory.file(OutputDirectory.frameName(ready.index))
                if rename(temporary, final) != 0 {
                    let code = errno
                    unlink(temporary)
                    failLocked(.write(final, errno: code), at: ready.index)
                    return
                }
                do throws(RecordingError) {
                    try log.append(ready)
                } catch {
                    // Unlisted frames must not stay on disk.
                    unlink(final)
                    failLocked(error, at: ready.index)
                    return
                }
                nextIndex += 1
            }
        }
    }

    private func fail(_ error: RecordingError, at index: Int) { locked { failLocked(error, at: index) } }

    /// Stops at `index`: nothing from there on is queued, encoded or committed; earlier frames in flight finish.
    private func failLocked(_ error: RecordingError, at index: Int) {
        if index < failedIndex {
            failure = error
            failedIndex = index
        }
        for pending in encoded.keys where pending >= failedIndex {
            unlink(directory.file(OutputDirectory.temporaryName(pending)))
            encoded.removeValue(forKey: pending)
        }
        queue.close(discardingPending: true)
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    private final class WorkerBox {
        let writer: FrameSequenceWriter
        init(_ writer: FrameSequenceWriter) { self.writer = writer }
    }

    private func startWorker() throws(RecordingError) {
        let context = Unmanaged.passRetained(WorkerBox(self)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let box = Unmanaged<WorkerBox>.fromOpaque(raw!).takeRetainedValue()
            box.writer.work()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<WorkerBox>.fromOpaque(context).release()
            throw RecordingError("cannot start an encoding thread: \(String(cString: strerror(result)))")
        }
        threads.append(thread)
    }

    static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
