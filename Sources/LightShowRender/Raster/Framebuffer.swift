/// An opaque RGB image, 8 bits per channel, rows top to bottom with no padding.
public struct Framebuffer: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes, R G B per pixel.
    public var pixels: [UInt8]

    public static let bytesPerPixel = 3

    public init(width: Int, height: Int, fill: RGBColorBytes = RGBColorBytes(0, 0, 0)) {
        self.width = max(0, width)
        self.height = max(0, height)
        var bytes = [UInt8](repeating: 0, count: self.width * self.height * Self.bytesPerPixel)
        if fill != RGBColorBytes(0, 0, 0) {
            for index in stride(from: 0, to: bytes.count, by: 3) {
                bytes[index] = fill.r; bytes[index + 1] = fill.g; bytes[index + 2] = fill.b
            }
        }
        pixels = bytes
    }

    public var rowBytes: Int { width * Self.bytesPerPixel }

    public func pixel(x: Int, y: Int) -> RGBColorBytes {
        let offset = (y * width + x) * Self.bytesPerPixel
        return RGBColorBytes(pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }
}

/// Three channel bytes; a small plain value for the hot loops (no optionals, no strings).
public struct RGBColorBytes: Sendable, Equatable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }
}
