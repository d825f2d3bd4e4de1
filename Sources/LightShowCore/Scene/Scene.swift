/// One moment of the show, ready to draw: background, three lights and the toolbar, laid out on a canvas.
/// Built from a `ShowFrame` and the settings; the renderers only paint it.
public struct Scene: Equatable, Sendable {
    public struct Light: Equatable, Sendable {
        public var band: Band
        public var color: RGBColor
        /// Alpha over the background, 0…1.
        public var level: Double
        public var circle: SceneCircle
    }

    public struct Toolbar: Equatable, Sendable {
        public var rect: SceneRect
        public var state: PlaybackState
        public var title: String
        /// Elapsed time as shown, e.g. `1:05` or `1:02:03`.
        public var elapsedText: String
    }

    /// How a scene looks, from the configuration.
    public struct Style: Equatable, Sendable {
        public var background: BackgroundSettings
        public var bands: BandsSettings
        public var scene: SceneSettings

        public init(background: BackgroundSettings = BackgroundSettings(), bands: BandsSettings = BandsSettings(), scene: SceneSettings = SceneSettings()) {
            self.background = background
            self.bands = bands
            self.scene = scene
        }

        /// The style `configuration` paints: its colours at its master brightness.
        public init(_ configuration: Configuration) {
            let brightness = configuration.scene.brightness
            self.init(
                background: configuration.background.dimmed(by: brightness), bands: configuration.bands.dimmed(by: brightness),
                scene: configuration.scene
            )
        }
    }

    public var layout: SceneLayout
    public var background: LinearGradient
    public var lights: [Light]
    /// Nil while stopped: the toolbar is collapsed.
    public var toolbar: Toolbar?

    public init(frame: ShowFrame, width: Int, height: Int, pixelAspect: Double = 1, style: Style = Style()) {
        let toolbarVisible = frame.state != .stopped
        let layout = SceneLayout(
            width: width, height: height, pixelAspect: pixelAspect,
            toolbarVisible: toolbarVisible, settings: style.scene
        )
        self.layout = layout
        background = LinearGradient(style.background)
        lights = Band.allCases.map { band in
            Light(band: band, color: style.bands[band].color, level: Self.level(of: band, in: frame), circle: layout.circle(for: band))
        }
        toolbar = toolbarVisible && layout.toolbar.height > 0
            ? Toolbar(
                rect: layout.toolbar, state: frame.state, title: frame.title,
                elapsedText: Self.formatElapsed(frame.elapsed ?? frame.time)
            )
            : nil
    }

    /// A light's alpha for `frame`: its band's level clamped to 0…1, 0 when not finite.
    public static func level(of band: Band, in frame: ShowFrame) -> Double {
        let level = Double(frame.levels[band])
        return level.isFinite ? min(1, max(0, level)) : 0
    }

    /// The same scene with the lights at `frame`'s levels (layout, colours and toolbar unchanged).
    public mutating func updateLevels(from frame: ShowFrame) {
        for index in lights.indices {
            lights[index].level = Self.level(of: lights[index].band, in: frame)
        }
    }

    /// `m:ss` below an hour, `h:mm:ss` from there; negative or non-finite input shows `0:00`.
    public static func formatElapsed(_ seconds: Double) -> String {
        let total = seconds.isFinite && seconds > 0 ? Int(saturating: min(seconds, 1e12).rounded(.down)) : 0
        let hours = total / 3600, minutes = total / 60 % 60, secs = total % 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(minutes):\(two(secs))"
    }
}
