import Foundation
public import LightShowCore

/// A frame of a recording, decoded with libpng, read back the way a person looks at it: which playback glyph the
/// toolbar shows, if any, and whether the lights show nothing but the background.
public struct RecordedFrame {
    public let png: DecodedPNG
    /// The layout the frame was drawn with (the toolbar's place, the light centres, the gradient).
    public let scene: Scene

    /// Decodes `path`; `state` only decides whether the layout has a toolbar (it collapses while stopped).
    public init(path: String, state: PlaybackState, style: Scene.Style = Scene.Style()) throws {
        png = try DecodedPNG(path: path)
        let frame = ShowFrame(index: 0, time: 0, levels: .zero, state: state, title: "")
        scene = Scene(frame: frame, width: png.width, height: png.height, style: style)
    }

    /// The glyph in the toolbar: ▶ is a triangle solid at its middle, ⏸ two bars with a gap there. Nil when the
    /// strip shows no glyph. Reads the icon box where the toolbar painter puts it (padding 0.35, size 0.4 of the
    /// strip's height).
    public var glyph: PlaybackState? {
        guard let strip = scene.toolbar?.rect else { return nil }
        let padding = (strip.height * 0.35).rounded()
        let size = (strip.height * 0.4).rounded()
        let (x, y) = (strip.x + padding, strip.y + (strip.height - size) / 2)
        func ink(_ fx: Double, _ fy: Double) -> Bool {
            png.pixel(Int(x + size * fx), Int(y + size * fy)).allSatisfy { $0 > 200 }
        }
        switch (ink(0.27, 0.5), ink(0.5, 0.5)) {
        case (true, true): return .playing
        case (true, false): return .paused
        default: return nil
        }
    }

    /// True when every light's centre is exactly the background gradient there (within 1 per channel).
    public var lightsShowOnlyBackground: Bool {
        scene.lights.allSatisfy { light in
            let (cx, cy) = (light.circle.center.x, light.circle.center.y)
            let expected = scene.background.color(x: cx, y: cy, width: Double(png.width), height: Double(png.height))
            let actual = png.pixel(Int(cx), Int(cy))
            return zip(actual, [expected.red, expected.green, expected.blue]).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
        }
    }

    /// True when the bottom strip (where the toolbar goes while playing or paused) is only the background.
    public func bottomStripIsBackground(height fraction: Double = SceneSettings().toolbarHeight) -> Bool {
        let top = Int((Double(png.height) * (1 - fraction)).rounded(.up))
        for y in top..<png.height {
            for x in stride(from: 0, to: png.width, by: 5) {
                let expected = scene.background.color(x: Double(x), y: Double(y), width: Double(png.width), height: Double(png.height))
                let actual = png.pixel(x, y)
                guard zip(actual, [expected.red, expected.green, expected.blue]).allSatisfy({ abs(Int($0) - Int($1)) <= 1 }) else {
                    return false
                }
            }
        }
        return true
    }
}
