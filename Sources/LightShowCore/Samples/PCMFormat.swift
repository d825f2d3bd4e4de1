/// Layout of raw interleaved PCM on a fifo or stdin, written `RATE:BITS:CHANNELS`
/// (`44100:16:2` by default, the MPD fifo convention; `32f` for 32-bit float).
public struct PCMFormat: Equatable, Sendable, Hashable, CustomStringConvertible {
    public enum Encoding: String, Sendable, Hashable {
        case signed16, signed24, signed32, float32

        public var bytesPerSample: Int {
            switch self {
            case .signed16: 2
            case .signed24: 3
            case .signed32, .float32: 4
            }
        }

        var token: String {
            switch self {
            case .signed16: "16"
            case .signed24: "24"
            case .signed32: "32"
            case .float32: "32f"
            }
        }
    }

    public var sampleRate: Int
    public var encoding: Encoding
    public var channels: Int

    public init(sampleRate: Int, encoding: Encoding, channels: Int) {
        self.sampleRate = sampleRate
        self.encoding = encoding
        self.channels = channels
    }

    public static let mpdDefault = PCMFormat(sampleRate: 44_100, encoding: .signed16, channels: 2)

    public var bytesPerFrame: Int { encoding.bytesPerSample * channels }

    public var description: String { "\(sampleRate):\(encoding.token):\(channels)" }

    /// Rates and channel counts accepted from outside (`--format-pcm`, a config, an audio file's header).
    public static let sampleRates = 8_000...384_000
    public static let channelCounts = 1...8

    /// What `--format-pcm` accepts, for error messages.
    public static let expectedSyntax = "RATE:BITS:CHANNELS with RATE 8000…384000, BITS 16, 24, 32 or 32f (float), CHANNELS 1…8, e.g. 44100:16:2"

    /// Parses `RATE:BITS:CHANNELS`; nil when any part is malformed or out of range.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let rate = Int(parts[0]), Self.sampleRates.contains(rate),
              let channels = Int(parts[2]), Self.channelCounts.contains(channels)
        else { return nil }
        let encoding: Encoding
        switch parts[1].lowercased() {
        case "16": encoding = .signed16
        case "24": encoding = .signed24
        case "32": encoding = .signed32
        case "32f", "f32", "float": encoding = .float32
        default: return nil
        }
        self.init(sampleRate: rate, encoding: encoding, channels: channels)
    }
}
