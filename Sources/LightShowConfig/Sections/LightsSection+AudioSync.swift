extension LightsSection {
    /// WLED audio sync sends the analysis, not a picture: the keys that place and colour lights don't apply.
    static func readAudioSync(_ entry: SectionReader) {
        for key in ["layout", "pixels", "start", "background", "brightness", "gamma"] {
            unused(entry, key, "is not used by wled-sync (it sends the analysis, and the device draws its own effects)")
        }
    }
}
