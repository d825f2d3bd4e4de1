import CSndfile
import LightShowCore

/// An open libsndfile handle for reading; closed when released.
/// Used by one thread at a time (opened by the source, then read only by its reader thread).
final class SndFile: @unchecked Sendable {
    private let handle: OpaquePointer
    let sampleRate: Int
    let channels: Int
    let frames: Int64

    /// Opens `path` for reading. Throws a `LightShowError` with exit status 65 when libsndfile can't decode it.
    init(path: String, spec: InputSpec) throws(LightShowError) {
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            let reason = String(cString: sf_strerror(nil))
            throw LightShowError(
                "input \(spec) can't be decoded (\(reason)); expected a WAV, FLAC or OGG audio file",
                exitStatus: .dataError
            )
        }
        self.handle = handle
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
        frames = Int64(info.frames)
    }

    deinit { sf_close(handle) }

    /// Reads up to `frameCount` interleaved float frames into `buffer` (sized frameCount × channels).
    /// Returns the frames read; 0 at the end.
    func read(into buffer: inout [Float], frameCount: Int) -> Int {
        buffer.withUnsafeMutableBufferPointer { pointer in
            Int(sf_readf_float(handle, pointer.baseAddress, sf_count_t(frameCount)))
        }
    }

    /// libsndfile's error for this handle, nil when there is none.
    var error: String? {
        sf_error(handle) == 0 ? nil : String(cString: sf_strerror(handle))
    }
}
