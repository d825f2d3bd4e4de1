import CSndfile
import LightShowCore
import LightShowSystem

#if canImport(Glibc)
import Glibc
#endif

/// An open libsndfile handle for reading, on a descriptor it owns; both closed when released.
/// Used by one thread at a time (opened by the source, then read only by its reader thread).
final class SndFile: @unchecked Sendable {
    private let handle: OpaquePointer
    private let descriptor: OwnedDescriptor
    let sampleRate: Int
    let channels: Int
    let frames: Int64
    /// Float or double samples, which may hold anything; integer ones come back within full scale.
    private let holdsFloats: Bool

    /// Opens `path` for reading. Opened without blocking and checked to be a regular file before libsndfile sees
    /// it: a path swapped for a fifo since it was checked would otherwise hold the open for ever, where no stop
    /// reaches it. Throws a `LightShowError`: 66 when it can't be opened, 65 when it isn't a file libsndfile decodes.
    init(path: String, spec: InputSpec, expected: String) throws(LightShowError) {
        let file: OwnedDescriptor
        do throws(SystemCallError) {
            file = try OwnedDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        } catch {
            throw LightShowError("input \(spec) can't be opened: \(error.message); expected \(expected)", exitStatus: .noInput)
        }
        guard (try? file.isRegularFile()) == true else {
            throw LightShowError("input \(spec) is not a regular file; expected \(expected)", exitStatus: .dataError)
        }
        var info = SF_INFO()
        // SF_FALSE: the descriptor stays ours to close, whether libsndfile takes it or not.
        guard let handle = sf_open_fd(file.rawValue, Int32(SFM_READ), &info, Int32(SF_FALSE)) else {
            let reason = String(cString: sf_strerror(nil))
            throw LightShowError("input \(spec) can't be decoded (\(reason)); expected \(expected)", exitStatus: .dataError)
        }
        self.handle = handle
        descriptor = file
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
        frames = Int64(info.frames)
        let encoding = info.format & Int32(SF_FORMAT_SUBMASK)
        holdsFloats = encoding == Int32(SF_FORMAT_FLOAT) || encoding == Int32(SF_FORMAT_DOUBLE)
    }

    deinit {
        // The descriptor closes after it, as a stored property.
        sf_close(handle)
    }

    /// Reads up to `frameCount` interleaved float frames into `buffer` (sized frameCount × channels), a float
    /// file's made safe as `outsideSample` says (it may hold NaN or 1e30). Returns the frames read; 0 at the end.
    func read(into buffer: inout [Float], frameCount: Int) -> Int {
        let (channels, holdsFloats) = (channels, holdsFloats)
        return buffer.withUnsafeMutableBufferPointer { pointer in
            let frames = max(0, Int(sf_readf_float(handle, pointer.baseAddress, sf_count_t(frameCount))))
            if holdsFloats {
                for index in 0..<(frames * channels) { pointer[index] = outsideSample(pointer[index]) }
            }
            return frames
        }
    }

    /// libsndfile's error for this handle, nil when there is none.
    var error: String? {
        sf_error(handle) == 0 ? nil : String(cString: sf_strerror(handle))
    }
}
