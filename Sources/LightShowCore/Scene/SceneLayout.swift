/// Where the lights and the toolbar go on a canvas. Pure geometry in abstract pixel units, so the PNG renderer
/// (square pixels) and the terminal viewer (pixels with an aspect) share it.
public struct SceneLayout: Equatable, Sendable {
    public enum Orientation: Sendable, Equatable {
        /// Lights in a row (physical width ≥ height).
        case landscape
        /// Lights in a column.
        case portrait
    }

    public let width: Int
    public let height: Int
    /// Width of one pixel divided by its height (1 for PNG; a terminal's half-block pixel may differ).
    public let pixelAspect: Double
    public let orientation: Orientation
    /// The toolbar strip at the bottom; zero height when collapsed.
    public let toolbar: SceneRect
    /// The area the lights share (canvas minus the toolbar).
    public let content: SceneRect
    /// One circle per band, in `Band.allCases` order (bass, mid, treble).
    public let lights: [SceneCircle]

    public init(width: Int, height: Int, pixelAspect: Double = 1, toolbarVisible: Bool, settings: SceneSettings = SceneSettings()) {
        let aspect = pixelAspect > 0 && pixelAspect.isFinite ? pixelAspect : 1
        self.width = max(0, width)
        self.height = max(0, height)
        self.pixelAspect = aspect
        let canvasHeight = Double(self.height)
        // Physical units: one unit = one pixel height.
        let physicalWidth = Double(self.width) * aspect
        orientation = physicalWidth >= canvasHeight ? .landscape : .portrait

        let toolbarHeight = toolbarVisible ? (canvasHeight * Self.clampFraction(settings.toolbarHeight)).rounded() : 0
        toolbar = SceneRect(x: 0, y: canvasHeight - toolbarHeight, width: Double(self.width), height: toolbarHeight)
        content = SceneRect(x: 0, y: 0, width: Double(self.width), height: canvasHeight - toolbarHeight)

        let margin = min(physicalWidth, canvasHeight) * Self.clampFraction(settings.margin)
        let contentHeight = content.height
        let count = Double(Band.allCases.count)
        var circles: [SceneCircle] = []
        for index in 0..<Band.allCases.count {
            let cell: SceneRect  // physical units
            switch orientation {
            case .landscape:
                let cellWidth = max(0, (physicalWidth - (count + 1) * margin) / count)
                cell = SceneRect(
                    x: margin + Double(index) * (cellWidth + margin), y: margin,
                    width: cellWidth, height: max(0, contentHeight - 2 * margin)
                )
            case .portrait:
                let cellHeight = max(0, (contentHeight - (count + 1) * margin) / count)
                cell = SceneRect(
                    x: margin, y: margin + Double(index) * (cellHeight + margin),
                    width: max(0, physicalWidth - 2 * margin), height: cellHeight
                )
            }
            // Always round: the diameter is the cell's shorter side, centred in the cell.
            let radius = min(cell.width, cell.height) / 2
            let center = cell.center
            circles.append(SceneCircle(
                center: ScenePoint(x: center.x / aspect, y: center.y),
                radiusX: radius / aspect,
                radiusY: radius
            ))
        }
        lights = circles
    }

    public func circle(for band: Band) -> SceneCircle {
        lights[Band.allCases.firstIndex(of: band) ?? 0]
    }

    private static func clampFraction(_ value: Double) -> Double {
        value.isFinite ? min(0.5, max(0, value)) : 0
    }
}
