import LightShowCore

/// `[scene]`: margin, toolbar_height (fractions of the canvas), brightness (the master brightness).
enum SceneSection: ConfigSection {
    static let name = "scene"

    static func read(_ section: SectionReader, into configuration: inout Configuration) {
        section.number("margin", in: SceneSettings.marginRange).assign(to: &configuration.scene.margin)
        section.number("toolbar_height", in: SceneSettings.toolbarHeightRange).assign(to: &configuration.scene.toolbarHeight)
        section.number("brightness", in: SceneSettings.brightnessRange).assign(to: &configuration.scene.brightness)
    }
}
