import FuzzDriver
import LightShowAudio
import LightShowCore

// Raw PCM as it comes from a fifo or stdin: the first byte picks the format, the rest arrive in pieces of any
// size (a frame split across reads), and every sample must come out finite and within -1…1.
FuzzDriver.main { bytes in
    guard let first = bytes.first else { return }
    let encodings: [PCMFormat.Encoding] = [.signed16, .signed24, .signed32, .float32]
    let format = PCMFormat(sampleRate: 44_100, encoding: encodings[Int(first) % 4], channels: 1 + Int(first >> 2) % 8)
    var decoder = PCMDecoder(format: format)
    var rest = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
    var piece = 1 + Int(first >> 5)
    while !rest.isEmpty {
        let count = min(piece, rest.count)
        for sample in decoder.decode(UnsafeRawBufferPointer(rebasing: rest.prefix(count))) {
            precondition(sample.isFinite && sample >= -1.0001 && sample <= 1.0001)
        }
        rest = UnsafeRawBufferPointer(rebasing: rest.dropFirst(count))
        piece = piece * 3 % 1021 + 1
    }
}
