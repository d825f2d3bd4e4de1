import CSndfile
public import LightShowCore
import LightShowSystem

/// Writes the audio a recording rendered to a 32-bit float WAV, so the samples are stored exactly as analysed: a
/// plain RIFF WAVE while its sizes fit in 32 bits, RF64 past 4 GiB (a RIFF header's sizes would wrap, and a long
/// recording would claim almost no audio).
/// The file is an `AtomicFile`: written under a hidden temporary name and renamed into place by `finish()`;
/// freed in `deinit`.
public final class WAVFileWriter {
    public let path: String
    private var handle: OpaquePointer?
    /// Its descriptor is ours, not libsndfile's (opened with SF_FALSE): closed exactly once, by it.
    private let file: AtomicFile
    public let sampleRate: Int
    public let channels: Int
    public private(set) var framesWritten: Int64 = 0

    public init(path: String, sampleRate: Int, channels: Int) throws(LightShowError) {
        self.path = path
        self.sampleRate = sampleRate
        self.channels = channels
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = Int32(SF_FORMAT_RF64 | SF_FORMAT_FLOAT)
        // Read and written: libsndfile goes back to the header.
        do throws(SystemCallError) {
            file = try AtomicFile(path: path, readable: true)
        } catch {
            throw LightShowError("cannot write \(path): \(error.message)", exitStatus: .ioError)
        }
        // SF_FALSE: with SF_TRUE a failed open closes the descriptor too, and closing it again here could close
        // one another thread had just been given.
        guard let opened = sf_open_fd(file.descriptor, Int32(SFM_WRITE), &info, Int32(SF_FALSE)) else {
            let reason = String(cString: sf_strerror(nil))
            file.discard()
            throw LightShowError("cannot write \(path): \(reason)", exitStatus: .ioError)
        }
        // Written as RIFF WAVE unless the file passes 4 GiB; must be set before any audio is written.
        // No SFC_SET_ADD_PEAK_CHUNK: libsndfile 1.2.0 writes RF64 without a PEAK chunk, and adds one (stamped with
        // the time of writing, so no two runs would match) when told to leave it out.
        _ = sf_command(opened, Int32(SFC_RF64_AUTO_DOWNGRADE), nil, Int32(SF_TRUE))
        handle = opened
    }

    deinit {
        // The file is discarded with it, unless `finish` placed it.
        if let handle { sf_close(handle) }
    }

    /// Appends a block's samples (its channel count must match).
    public func write(_ block: SampleBlock) throws(LightShowError) {
        guard let handle else { throw LightShowError("cannot write \(path): already closed", exitStatus: .ioError) }
        guard block.channels == channels else {
            throw LightShowError("cannot write \(path): block has \(block.channels) channels, expected \(channels)", exitStatus: .ioError)
        }
        let wanted = sf_count_t(block.frameCount)
        let written = block.samples.withUnsafeBufferPointer { sf_writef_float(handle, $0.baseAddress, wanted) }
        guard written == wanted else {
            throw LightShowError("cannot write \(path): \(String(cString: sf_strerror(handle)))", exitStatus: .ioError)
        }
        framesWritten += Int64(written)
    }

    /// Appends `frames` frames of silence, a second at a time so a long pad needs no large buffer.
    public func writeSilence(frames: Int64) throws(LightShowError) {
        var left = frames
        let chunk = Int64(max(1, sampleRate))
        while left > 0 {
            let count = Int(min(left, chunk))
            try write(SampleBlock(
                samples: [Float](repeating: 0, count: count * channels), channels: channels, sampleRate: sampleRate,
                startFrame: framesWritten
            ))
            left -= Int64(count)
        }
    }

    /// Completes the header, makes the file durable and renames it into place. libsndfile's close ignores a header
    /// it couldn't write (a full disk), which would leave a file claiming no audio, so the header is written and
    /// checked first.
    public func finish() throws(LightShowError) {
        guard let handle else { return }
        self.handle = nil
        _ = sf_command(handle, Int32(SFC_UPDATE_HEADER_NOW), nil, 0)
        var failure = sf_error(handle) == 0 ? nil : String(cString: sf_strerror(handle))
        let status = sf_close(handle)
        if failure == nil && status != 0 { failure = String(cString: sf_error_number(status)) }
        if failure == nil {
            do throws(SystemCallError) {
                try file.place()
            } catch {
                failure = error.message
            }
        }
        if let failure {
            file.discard()
            throw LightShowError("cannot write \(path): \(failure)", exitStatus: .ioError)
        }
    }
}
