public import LightShowCore

/// The `scene` event subscribers receive first and again after every change (a reload, a band tuned from a
/// viewer), so viewers draw the daemon's scene, not their own config's:
/// `{"event":"scene","bands":{"bass":{"lower":20,"upper":250,"color":"#FF3B30"},…},
///   "background":{"from":"#101020","to":"#302050","angle":270},"scene":{"margin":0.04,"toolbar_height":0.08}}`.
public enum ShowSceneEvent {
    public static let name = "scene"

    public static func encode(_ style: Scene.Style) -> JSONValue {
        var bands: JSONObject = [:]
        for band in Band.allCases {
            let entry = style.bands[band]
            bands[band.rawValue] = [
                "lower": .number(entry.range.lower), "upper": .number(entry.range.upper), "color": .string(entry.color.hex),
            ]
        }
        return [
            "event": .string(name),
            "bands": .object(bands),
            "background": [
                "from": .string(style.background.from.hex), "to": .string(style.background.to.hex),
                "angle": .number(style.background.angle),
            ],
            "scene": ["margin": .number(style.scene.margin), "toolbar_height": .number(style.scene.toolbarHeight)],
        ]
    }

    /// The style in a `scene` event; nil for other events, or for one with any value missing or out of range
    /// (the stream is from another process: nothing in it is trusted).
    public static func decode(_ value: JSONValue) -> Scene.Style? {
        guard value["event"]?.stringValue == name,
              let background = value["background"], let scene = value["scene"], let bandsValue = value["bands"],
              let from = background["from"]?.stringValue.flatMap(RGBColor.init(hex:)),
              let to = background["to"]?.stringValue.flatMap(RGBColor.init(hex:)),
              let angle = number(background["angle"], in: BackgroundSettings.angleRange),
              let margin = number(scene["margin"], in: SceneSettings.marginRange),
              let toolbar = number(scene["toolbar_height"], in: SceneSettings.toolbarHeightRange)
        else { return nil }
        var style = Scene.Style()
        let axis = FrequencyRange.axisMinimum...FrequencyRange.axisMaximum
        for band in Band.allCases {
            guard let entry = bandsValue[band.rawValue],
                  let lower = number(entry["lower"], in: axis), let upper = number(entry["upper"], in: axis), lower < upper,
                  let color = entry["color"]?.stringValue.flatMap(RGBColor.init(hex:))
            else { return nil }
            style.bands[band] = BandsSettings.Entry(range: FrequencyRange(lower: lower, upper: upper), color: color)
        }
        style.background.from = from
        style.background.to = to
        style.background.angle = angle
        style.scene.margin = margin
        style.scene.toolbarHeight = toolbar
        return style
    }

    private static func number(_ value: JSONValue?, in range: ClosedRange<Double>) -> Double? {
        guard let number = value?.numberValue, number.isFinite, range.contains(number) else { return nil }
        return number
    }
}
