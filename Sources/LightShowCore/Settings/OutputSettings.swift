/// `[output]`: what every live output of the show shares.
public struct OutputSettings: Equatable, Sendable {
    /// How long viewers and lights hold each frame back, milliseconds (0…5000): a Bluetooth speaker or a TV
    /// plays the sound 100–300 ms after lightshow hears it. Recordings ignore it: their audio is in the file.
    public var delayMilliseconds: Double = 0
    public static let maximumDelayMilliseconds = 5000.0

    public init() {}
}
