import CZlib
import Foundation
import LightShowCore
import LightShowRender
import Testing
import TestSupport

/// The PNG encoder against independent decoders: libpng for the image, zlib for each chunk's CRC and the
/// stream's Adler-32.
@Suite struct PNGEncoderTests {
    private func noise(width: Int, height: Int, seed: UInt32) -> Framebuffer {
        var image = Framebuffer(width: width, height: height)
        var state = seed
        for index in image.pixels.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            image.pixels[index] = UInt8(truncatingIfNeeded: state >> 24)
        }
        return image
    }

    private func rendered(width: Int, height: Int, state: PlaybackState = .playing) -> Framebuffer {
        let frame = ShowFrame(index: 0, time: 83, levels: BandLevels(bass: 0.8, mid: 0.35, treble: 1), state: state, title: "Round Trip")
        return FrameRenderer().render(Scene(frame: frame, width: width, height: height))
    }

    /// The image's rows as the PNG stores them unfiltered: a 0 filter byte before each row.
    private func scanlines(_ image: Framebuffer) -> [UInt8] {
        var bytes: [UInt8] = []
        for row in 0..<image.height {
            bytes.append(0)
            bytes += image.pixels[row * image.rowBytes..<(row + 1) * image.rowBytes]
        }
        return bytes
    }

    /// Checks every chunk's CRC and inflates the IDAT data with zlib (which checks the Adler-32).
    private func inflatedIDAT(_ png: [UInt8], expectedCount: Int) -> [UInt8]? {
        var position = 8
        var idat: [UInt8] = []
        while position + 12 <= png.count {
            let length = png[position..<position + 4].reduce(0) { $0 << 8 | Int($1) }
            let typeAndData = Array(png[position + 4..<position + 8 + length])
            let stored = png[position + 8 + length..<position + 12 + length].reduce(UInt(0)) { $0 << 8 | UInt($1) }
            guard crc32(0, typeAndData, uInt(typeAndData.count)) == stored else { return nil }
            if typeAndData.starts(with: Array("IDAT".utf8)) { idat += typeAndData.dropFirst(4) }
            position += 12 + length
        }
        var output = [UInt8](repeating: 0, count: expectedCount)
        var outputCount = uLongf(expectedCount)
        guard uncompress(&output, &outputCount, idat, uLong(idat.count)) == Z_OK else { return nil }
        return Array(output[0..<Int(outputCount)])
    }

    private func expectRoundTrip(_ image: Framebuffer, _ label: String, encoder: PNGEncoder = PNGEncoder()) throws {
        let png = try encoder.encode(image)
        let dir = try TemporaryDirectory("png")
        let decoded = try DecodedPNG(path: dir.write("image.png", Data(png)))
        #expect(decoded.width == image.width && decoded.height == image.height, "\(label)")
        #expect(decoded.rgb == image.pixels, "\(label): libpng decodes the same pixels")
        let rows = scanlines(image)
        #expect(inflatedIDAT(png, expectedCount: rows.count) == rows, "\(label): CRCs, Adler-32 and zlib's inflate agree")
    }

    @Test func renderedFramesRoundTrip() throws {
        try expectRoundTrip(rendered(width: 1280, height: 720), "720p playing")
        try expectRoundTrip(rendered(width: 640, height: 360, state: .stopped), "360p stopped")
        try expectRoundTrip(rendered(width: 360, height: 640), "portrait")
    }

    /// Noise is all literals: many blocks, each with its own codes.
    @Test func noiseRoundTrips() throws {
        try expectRoundTrip(noise(width: 300, height: 200, seed: 1), "noise")
    }

    /// Sizes with too few bytes for the row candidates, and rows at and past deflate's 32 KB window (at 10 923 pixels
    /// only the diagonals up and to the right are near enough, at 10 925 nothing in the row above is).
    @Test(arguments: [(1, 1), (2, 2), (3, 1), (1, 5), (7, 3), (10_923, 3), (10_925, 2), (7680, 40)])
    func oddSizesRoundTrip(width: Int, height: Int) throws {
        try expectRoundTrip(rendered(width: width, height: height), "\(width)x\(height)")
        try expectRoundTrip(noise(width: width, height: height, seed: UInt32(width)), "\(width)x\(height) noise")
    }

    /// One colour: the fewest distinct symbols a block can have.
    @Test func uniformImageRoundTrips() throws {
        try expectRoundTrip(Framebuffer(width: 640, height: 360, fill: RGBColorBytes(20, 30, 40)), "uniform")
        try expectRoundTrip(Framebuffer(width: 640, height: 360), "black")
    }

    /// One encoder, reused across sizes and contents, writes what a fresh one writes.
    @Test func reusedEncoderMatchesAFreshOne() throws {
        let reused = PNGEncoder()
        for image in [rendered(width: 1280, height: 720), noise(width: 64, height: 36, seed: 9), rendered(width: 640, height: 360)] {
            #expect(try reused.encode(image) == PNGEncoder().encode(image))
        }
    }

    /// A representative frame comes out no larger than zlib's default level makes of the same unfiltered rows,
    /// which is what ffmpeg's default PNG encoder writes.
    @Test func representativeFrameIsNoLargerThanZlibDefault() throws {
        let image = rendered(width: 1280, height: 720)
        let rows = scanlines(image)
        var zlibCount = compressBound(uLong(rows.count))
        var zlibOutput = [UInt8](repeating: 0, count: Int(zlibCount))
        #expect(compress2(&zlibOutput, &zlibCount, rows, uLong(rows.count), Z_DEFAULT_COMPRESSION) == Z_OK)
        let ours = try PNGEncoder().encode(image)
        let overhead = 8 + 25 + 12 + 12  // signature, IHDR, IDAT's length, type and CRC, IEND
        #expect(ours.count - overhead <= Int(zlibCount), "\(ours.count - overhead) bytes against zlib's \(zlibCount)")
    }

    @Test func emptyImageIsAnError() {
        #expect(throws: PNGError.self) { try PNGEncoder().encode(Framebuffer(width: 0, height: 4)) }
    }
}
