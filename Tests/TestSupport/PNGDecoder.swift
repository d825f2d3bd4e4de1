import CPNG
import Foundation

/// Decodes PNG files with libpng's simplified API: an independent, real decoder for checking written frames.
public struct DecodedPNG: Sendable {
    public var width: Int
    public var height: Int
    /// RGB, 3 bytes per pixel, rows top to bottom.
    public var rgb: [UInt8]

    /// Decodes the file at `path`; throws with libpng's message when it isn't a valid PNG.
    public init(path: String) throws {
        var image = png_image()
        image.version = lightshow_PNG_IMAGE_VERSION
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw DecodeError(message: "\(path): \(Self.message(of: &image))")
        }
        image.format = lightshow_PNG_FORMAT_RGB
        let width = Int(image.width), height = Int(image.height)
        var buffer = [UInt8](repeating: 0, count: width * height * 3)
        let ok = buffer.withUnsafeMutableBytes { bytes in
            png_image_finish_read(&image, nil, bytes.baseAddress, Int32(width * 3), nil)
        }
        guard ok != 0 else {
            let text = Self.message(of: &image)
            png_image_free(&image)
            throw DecodeError(message: "\(path): \(text)")
        }
        self.width = width
        self.height = height
        rgb = buffer
    }

    public struct DecodeError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// (r, g, b) at a pixel.
    public func pixel(_ x: Int, _ y: Int) -> [UInt8] {
        let offset = (y * width + x) * 3
        return Array(rgb[offset..<offset + 3])
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
