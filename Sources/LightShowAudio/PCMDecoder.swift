public import LightShowCore

/// Turns raw little-endian interleaved PCM bytes into float samples (−1…1), keeping a partial frame for the next call.
public struct PCMDecoder: Sendable {
    public let format: PCMFormat
    private var pending: [UInt8] = []
    /// The samples last handed out, refilled in place once the caller has let go of them (the usual case: a block
    /// is analysed before the next read), so decoding allocates nothing. A new array each time went through the
    /// standard library's unspecialised initialiser and a type-metadata lookup (5% of a live show's CPU).
    private var output: [Float] = []

    public init(format: PCMFormat) { self.format = format }

    /// Bytes of a partial frame held back until more arrive (dropped at the end of input).
    public var pendingByteCount: Int { pending.count }

    /// Decodes the whole frames of `pending + bytes` and keeps the rest.
    public mutating func decode(_ bytes: UnsafeRawBufferPointer) -> [Float] {
        let frameBytes = format.bytesPerFrame
        if pending.isEmpty {
            let whole = bytes.count / frameBytes * frameBytes
            let samples = converted(UnsafeRawBufferPointer(rebasing: bytes[0..<whole]))
            pending.append(contentsOf: bytes[whole...])
            return samples
        }
        pending.append(contentsOf: bytes)
        let whole = pending.count / frameBytes * frameBytes
        var held: [UInt8] = []
        swap(&held, &pending)
        let samples = held.withUnsafeBytes { converted(UnsafeRawBufferPointer(rebasing: $0[0..<whole])) }
        held.removeFirst(whole)
        swap(&held, &pending)
        return samples
    }

    /// `bytes` (whole samples) as floats, in `output`.
    private mutating func converted(_ bytes: UnsafeRawBufferPointer) -> [Float] {
        let count = bytes.count / format.encoding.bytesPerSample
        if output.count != count { output = [Float](repeating: 0, count: count) }
        output.withUnsafeMutableBufferPointer { Self.convert(bytes, encoding: format.encoding, into: $0) }
        return output
    }

    /// Converts `output.count` whole samples of one encoding to floats.
    static func convert(_ bytes: UnsafeRawBufferPointer, encoding: PCMFormat.Encoding, into output: UnsafeMutableBufferPointer<Float>) {
        let count = output.count
        do {
            switch encoding {
            case .signed16:
                // The common case (MPD's fifo): a plain typed loop the compiler vectorises, when the bytes are
                // aligned for Int16 (they are, in our read buffers).
                if let base = bytes.baseAddress, Int(bitPattern: base) % MemoryLayout<Int16>.alignment == 0 {
                    base.withMemoryRebound(to: Int16.self, capacity: count) { input in
                        for i in 0..<count { output[i] = Float(Int16(littleEndian: input[i])) * (1 / 32_768) }
                    }
                } else {
                    for i in 0..<count {
                        let value = Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 2, as: Int16.self))
                        output[i] = Float(value) * (1 / 32_768)
                    }
                }
            case .signed24:
                for i in 0..<count {
                    let o = i * 3
                    // Place the three bytes in the top of an Int32 so the sign extends.
                    let raw = Int32(bitPattern: UInt32(bytes[o]) << 8 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 24)
                    output[i] = Float(raw >> 8) * (1 / 8_388_608)
                }
            case .signed32:
                for i in 0..<count {
                    let value = Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 4, as: Int32.self))
                    output[i] = Float(value) * (1 / 2_147_483_648)
                }
            case .float32:
                for i in 0..<count {
                    let bits = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
                    output[i] = outsideSample(Float(bitPattern: bits))
                }
            }
        }
    }
}
