import FuzzDriver
import LightShowCore
@testable import LightShowAudio

#if canImport(Glibc)
import Glibc
#endif

// Audio files: the bytes are written to a temp file and opened as `analyze --input FILE` opens one (libsndfile,
// then the header's rate and channels checked), then read to the end or at most a minute of audio.
let path = "/tmp/lightshow-fuzz-\(getpid()).wav"
FuzzDriver.main { bytes in
    guard let file = fopen(path, "wb") else { return }
    if let base = bytes.baseAddress { fwrite(base, 1, bytes.count, file) }
    fclose(file)
    defer { unlink(path) }
    guard let source = try? FileSource(path: path, spec: .file(path: path), realtime: false) else { return }
    precondition(PCMFormat.sampleRates.contains(source.sampleRate) && PCMFormat.channelCounts.contains(source.channels))
    guard let handle = try? SndFile(path: path, spec: source.spec, expected: "an audio file") else { return }
    var buffer = [Float](repeating: 0, count: 4096 * source.channels)
    var frames = 0
    while frames < 60 * source.sampleRate {
        let count = handle.read(into: &buffer, frameCount: 4096)
        if count <= 0 { break }
        // Whatever the file holds, the analysis gets finite samples within full scale.
        precondition(buffer[0..<(count * source.channels)].allSatisfy { $0.isFinite && abs($0) <= 1 })
        frames += count
    }
}
