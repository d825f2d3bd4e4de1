import CZlib

/// A zlib deflate stream, owned here and freed in `deinit`; reset and reused for every image.
final class DeflateStream {
    private let stream: UnsafeMutablePointer<z_stream>
    private var isOpen = false

    /// A raw deflate stream (no zlib header or checksum: the PNG encoder writes those itself).
    /// - Parameter strategy: `Z_DEFAULT_STRATEGY`, `Z_RLE`, …
    init(level: Int32, strategy: Int32) throws(PNGError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = lightshow_deflateInit2(stream, level, -15, 8, strategy)
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw PNGError("zlib deflateInit2 failed (\(status))")
        }
        isOpen = true
    }

    deinit {
        if isOpen { deflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Upper bound of the compressed size of `length` input bytes.
    func bound(_ length: Int) -> Int { Int(deflateBound(stream, uLong(length))) }

    /// Starts a new deflate stream that writes into `output` (which must have room for the whole result).
    func begin(output: UnsafeMutablePointer<UInt8>, capacity: Int) throws(PNGError) {
        guard deflateReset(stream) == Z_OK else { throw PNGError("zlib deflateReset failed") }
        stream.pointee.next_out = output
        stream.pointee.avail_out = uInt(capacity)
    }

    /// Compresses `count` bytes; `finish` ends the stream. Returns the total bytes written so far.
    @discardableResult
    func compress(_ input: UnsafeMutablePointer<UInt8>, count: Int, finish: Bool) throws(PNGError) -> Int {
        stream.pointee.next_in = input
        stream.pointee.avail_in = uInt(count)
        let status = deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
        let done = finish ? status == Z_STREAM_END : (status == Z_OK || status == Z_BUF_ERROR)
        guard done, stream.pointee.avail_in == 0 else { throw PNGError("zlib deflate failed (\(status))") }
        return Int(stream.pointee.total_out)
    }
}

/// An encoder failure (never expected with a correctly sized buffer; reported rather than trapped).
public struct PNGError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
