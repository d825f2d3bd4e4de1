/// An output image size as `--size WIDTHxHEIGHT` gives it: even sides (video encoders need them), at most 8K UHD.
public struct FrameSize: Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public static let maximum = FrameSize(uncheckedWidth: 7680, height: 4320)
    public static let hd720 = FrameSize(uncheckedWidth: 1280, height: 720)
    public static let expectedSyntax = "WIDTHxHEIGHT with even sides from 2 up to 7680x4320, e.g. 1280x720"

    private init(uncheckedWidth width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `1280x720` (or `1280X720`); nil when malformed, zero, odd or larger than `maximum`.
    public init?(parsing text: String) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false).flatMap { $0.split(separator: "X", omittingEmptySubsequences: false) }
        guard parts.count == 2,
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let width = Int(parts[0]), let height = Int(parts[1]),
              width > 0, height > 0, width % 2 == 0, height % 2 == 0,
              width <= Self.maximum.width, height <= Self.maximum.height
        else { return nil }
        self.init(uncheckedWidth: width, height: height)
    }

    public var description: String { "\(width)x\(height)" }
}
