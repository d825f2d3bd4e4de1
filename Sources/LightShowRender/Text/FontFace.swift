import CFreeType

/// One FreeType library + face at one pixel size, owned together and freed in `deinit`.
/// Not thread-safe (FreeType faces aren't): each renderer owns its own.
public final class FontFace {
    /// A rendered glyph: 8-bit coverage rows plus placement relative to the pen on the baseline.
    struct Glyph {
        var width: Int
        var rows: Int
        var left: Int
        var top: Int
        var advance: Int
        var coverage: [UInt8]
    }

    /// Fonts tried in order: Debian's fonts-dejavu-core first.
    public static let searchPaths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    ]

    public let path: String
    public let pixelSize: Int
    private var library: FT_Library?
    private var face: FT_Face?
    private var cache: [Unicode.Scalar: Glyph] = [:]
    /// Distance from the baseline up to the top of the tallest glyphs, and down to the bottom, in pixels.
    public private(set) var ascender = 0
    public private(set) var descender = 0

    /// Opens the first usable font of `paths` at `pixelSize`; nil when none loads.
    public init?(pixelSize: Int, paths: [String] = FontFace.searchPaths) {
        self.pixelSize = max(1, pixelSize)
        var lib: FT_Library?
        guard FT_Init_FreeType(&lib) == 0, let lib else { return nil }
        library = lib
        var chosen: String?
        for candidate in paths {
            var opened: FT_Face?
            if FT_New_Face(lib, candidate, 0, &opened) == 0, let opened {
                if FT_Set_Pixel_Sizes(opened, 0, FT_UInt(self.pixelSize)) == 0 {
                    face = opened
                    chosen = candidate
                    break
                }
                FT_Done_Face(opened)
            }
        }
        guard let chosen, let face else {
            FT_Done_FreeType(lib)
            library = nil
            return nil
        }
        path = chosen
        let metrics = face.pointee.size.pointee.metrics
        ascender = Int((metrics.ascender + 63) >> 6)
        descender = Int((-metrics.descender + 63) >> 6)
    }

    deinit {
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// The rendered glyph for a character (cached); nil if FreeType can't render it.
    func glyph(_ scalar: Unicode.Scalar) -> Glyph? {
        if let cached = cache[scalar] { return cached }
        guard let face, FT_Load_Char(face, FT_ULong(scalar.value), lightshow_FT_LOAD_RENDER) == 0,
              let slot = face.pointee.glyph else { return nil }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), rows = Int(bitmap.rows)
        var coverage = [UInt8](repeating: 0, count: width * rows)
        if let buffer = bitmap.buffer, width > 0, rows > 0 {
            let pitch = Int(bitmap.pitch)
            for row in 0..<rows {
                // A negative pitch means the rows are stored bottom-up.
                let source = pitch >= 0 ? buffer + row * pitch : buffer + (rows - 1 - row) * (-pitch)
                for column in 0..<width { coverage[row * width + column] = source[column] }
            }
        }
        let glyph = Glyph(
            width: width, rows: rows,
            left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top),
            advance: Int((slot.pointee.advance.x + 32) >> 6),
            coverage: coverage
        )
        cache[scalar] = glyph
        return glyph
    }

    /// Width in pixels of `text` set on one line.
    public func measure(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + (glyph($1)?.advance ?? 0) }
    }
}
