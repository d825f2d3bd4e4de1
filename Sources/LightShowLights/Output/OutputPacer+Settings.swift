import LightShowCore

extension OutputPacer {
    /// The pacer an output's protocol wants. WLED audio sync sends at its rate whether or not anything changed (a
    /// receiver's counter check and its effects expect a steady stream), and its end is one second of zeros: a
    /// receiver keeps the last values it got forever.
    init(settings: LightOutputSettings) {
        guard settings.networkProtocol == .wledSync else {
            self.init(framesPerSecond: settings.framesPerSecond)
            return
        }
        let rate = settings.framesPerSecond.isFinite ? min(1000, max(1, settings.framesPerSecond)) : 50
        self.init(framesPerSecond: rate, blackRepeats: Int(rate.rounded()), steady: true)
    }
}
