import LightShowCore

/// Paints a scene into one output's bytes: DMX slots from channel 1 (sACN, Art-Net), or RGB pixel data from
/// the output's first pixel (DDP). Colours are composited like the screen's lights (band colour at alpha =
/// level over the base), then passed through the output's gamma and brightness curve.
struct LightPainter: Sendable {
    let settings: LightOutputSettings
    private let curve: ChannelCurve
    /// Strip with background: each pixel's gradient colour, full strength.
    private let gradientBase: [RGBColor]?
    private let segments: StripSegments

    init(settings: LightOutputSettings, background: BackgroundSettings) {
        self.settings = settings
        curve = ChannelCurve(gamma: settings.gamma, brightness: settings.brightness)
        segments = StripSegments(pixels: settings.layout == .strip ? settings.pixels : 3)
        if settings.layout == .strip, settings.background {
            // A strip is a horizontal line through the middle of the canvas, in gradient space.
            let gradient = LinearGradient(background)
            let count = max(1, settings.pixels)
            gradientBase = (0..<settings.pixels).map { index in
                gradient.from.mixed(with: gradient.to, fraction: gradient.t(at: ScenePoint(x: (Double(index) + 0.5) / Double(count), y: 0.5)))
            }
        } else {
            gradientBase = nil
        }
    }

    /// Byte offset of the painted data in the receiver's buffer: DDP places pixels; DMX slots start at channel 1.
    var dataOffset: Int {
        settings.networkProtocol.isDMX ? 0 : (settings.start - 1) * 3
    }

    /// The bytes for `scene`: for DMX, `start - 1` zero slots then the layout's channels; for DDP, the pixels.
    func paint(_ scene: LightScene) -> [UInt8] {
        let lead = settings.networkProtocol.isDMX ? settings.start - 1 : 0
        var bytes = [UInt8](repeating: 0, count: lead + pixelCount * 3)
        var position = lead
        for band in Band.allCases {
            let alpha = scene.alpha(of: band)
            let color = scene.color(of: band)
            for pixel in segments.range(of: band) {
                var base = RGBColor.black
                if let gradientBase, pixel < gradientBase.count, scene.background > 0 {
                    base = RGBColor.black.mixed(with: gradientBase[pixel], fraction: scene.background)
                }
                let shown = color.composited(over: base, alpha: alpha)
                bytes[position] = curve[shown.red]
                bytes[position + 1] = curve[shown.green]
                bytes[position + 2] = curve[shown.blue]
                position += 3
            }
        }
        return bytes
    }

    /// RGB pixels (or three-channel fixtures) the layout paints.
    private var pixelCount: Int {
        segments.ranges.reduce(0) { $0 + $1.count }
    }
}
