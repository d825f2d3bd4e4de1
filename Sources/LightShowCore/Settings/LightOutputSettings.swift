/// One `[[lights]]` entry: a network light output that shows the three bands.
/// Defaults that depend on the protocol (port, fps, layout, gamma) are filled by `init(protocol:)`.
public struct LightOutputSettings: Equatable, Sendable {
    public enum NetworkProtocol: String, CaseIterable, Sendable {
        /// Distributed Display Protocol: WLED and other pixel controllers.
        case ddp
        /// E1.31 streaming ACN: DMX over UDP, multicast or unicast.
        case sacn
        /// Art-Net ArtDmx: DMX over UDP, unicast to the node.
        case artnet
        /// Philips Hue's Entertainment API: an area of a bridge, streamed over DTLS.
        case hue
        /// WLED audio sync v2: the analysis itself (volume, peaks, a 16-channel GEQ), for WLED's own effects.
        case wledSync = "wled-sync"

        public var defaultPort: Int {
            switch self {
            case .ddp: 4048
            case .sacn: 5568
            case .artnet: 6454
            case .hue: 443
            case .wledSync: 11988
            }
        }

        /// sACN and Art-Net carry one DMX universe of 512 channels.
        public var isDMX: Bool { self == .sacn || self == .artnet }

        /// Protocols that multicast by default, and so take an `interface`.
        public var takesInterface: Bool { self == .sacn || self == .wledSync }
    }

    public enum Layout: String, CaseIterable, Sendable {
        /// Three RGB fixtures (bass, mid, treble): three channels (or one pixel) each, from `start`.
        case fixtures
        /// `pixels` LEDs from `start`, split into three segments, one per band.
        case strip
    }

    public var networkProtocol: NetworkProtocol
    /// Host name or numeric address; "" sends sACN to the universe's multicast group. WLED audio sync defaults
    /// to WLED's group, 239.0.0.1.
    public var address = ""
    public var port: Int
    /// sACN universe 1…63999; Art-Net 15-bit port address (net·256 + subnet·16 + universe) 0…32767; unused by DDP.
    public var universe: Int
    /// First DMX channel (sACN, Art-Net) or first pixel (DDP), counting from 1.
    public var start = 1
    public var layout: Layout
    /// Strip length in pixels (layout `strip`).
    public var pixels = 0
    /// Output rate, independent of the analysis rate.
    public var framesPerSecond: Double
    /// Cap on every channel, 0…1.
    public var brightness = 1.0
    /// Exponent from colour value to LED duty, so alpha looks linear to the eye.
    public var gamma: Double
    /// Strip only: the background gradient as the dim base under the segments.
    public var background = false
    /// sACN priority, 0…200.
    public var priority = 100
    /// sACN source name, at most 63 bytes of UTF-8.
    public var sourceName = "lightshow"
    /// Numeric IPv4 address of the interface for multicast (sACN, WLED audio sync); "" lets routing choose.
    public var interface = ""
    /// This output's own sync offset, milliseconds, added to `[output] delay` (a Wi-Fi strip lags a wired one).
    public var delayMilliseconds = 0.0
    /// Shown in status and logs; "" uses `lights[N]`.
    public var name = ""
    /// Hue: the entertainment area's name or id.
    public var area = ""
    /// Hue: the bridge's DTLS port for the stream (`port` is its HTTPS port).
    public var streamPort = 2100
    /// Hue: bands chosen by channel id; the other channels follow a band by their position.
    public var channelBands: [Int: Band] = [:]

    public init(protocol networkProtocol: NetworkProtocol) {
        self.networkProtocol = networkProtocol
        port = networkProtocol.defaultPort
        universe = networkProtocol == .sacn ? 1 : 0
        layout = networkProtocol == .ddp || networkProtocol == .wledSync ? .strip : .fixtures
        // A full DMX universe refreshes at most about 44 times a second; pixel controllers take more; WLED's own
        // audio sync senders send every 20 ms, and a Hue stream runs at 50.
        framesPerSecond = networkProtocol.isDMX ? 44 : networkProtocol == .hue || networkProtocol == .wledSync ? 50 : 60
        if networkProtocol == .wledSync { address = "239.0.0.1" }
        gamma = Self.defaultGamma(networkProtocol, layout)
    }

    /// 2.2 for bare LEDs (strips, DDP); 1.0 for DMX fixtures and Hue lamps, which apply their own dimming curve.
    public static func defaultGamma(_ networkProtocol: NetworkProtocol, _ layout: Layout) -> Double {
        networkProtocol == .hue || networkProtocol.isDMX && layout == .fixtures ? 1.0 : 2.2
    }

    /// Largest strip a DMX universe holds from `start`: three channels a pixel.
    public var maximumDMXPixels: Int { max(0, (513 - start) / 3) }

    /// DMX channels (or DDP pixels) the layout covers, counted from `start`.
    public var footprint: Int {
        switch layout {
        case .fixtures: networkProtocol.isDMX ? 9 : 3
        case .strip: networkProtocol.isDMX ? pixels * 3 : pixels
        }
    }

    /// The name for status and logs: `name`, else `lights[index]` (index counting from 1, as in config errors).
    public func displayName(index: Int) -> String {
        name.isEmpty ? "lights[\(index)]" : name
    }
}
