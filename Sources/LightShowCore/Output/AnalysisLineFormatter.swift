/// How `lightshow analyze` writes frames.
public enum AnalysisOutputFormat: String, CaseIterable, Sendable {
    /// `{"t":1.2333,"bass":0.82,"mid":0.10,"treble":0.02,"state":"playing"}`
    case jsonl
    /// `t,bass,mid,treble,state` header, then one row per frame.
    case csv
    /// cava's raw ascii output with `ascii_max_range = 1000`: `B;M;T;` then `\n` (cava ends every bar with the delimiter).
    case ascii
}

/// Turns analysis frames into output lines, appending UTF-8 bytes to a buffer (no Foundation, no allocation per
/// number), so the writer can send one line or a batch of lines with a single `write`.
public struct AnalysisLineFormatter: Sendable {
    public let format: AnalysisOutputFormat

    public init(format: AnalysisOutputFormat) {
        self.format = format
    }

    /// The first line, if the format has one.
    public var header: String? {
        format == .csv ? "t,bass,mid,treble,state\n" : nil
    }

    /// One frame as a string (for tests and small outputs).
    public func line(time: Double, levels: BandLevels, state: PlaybackState) -> String {
        var bytes: [UInt8] = []
        append(time: time, levels: levels, state: state, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends one frame, newline included.
    public func append(time: Double, levels: BandLevels, state: PlaybackState, to bytes: inout [UInt8]) {
        switch format {
        case .ascii:
            for band in Band.allCases {
                Self.appendInteger(Self.asciiValue(levels[band]), to: &bytes)
                bytes.append(UInt8(ascii: ";"))
            }
        case .jsonl:
            bytes.append(contentsOf: #"{"t":"#.utf8)
            Self.appendFixed(time, decimals: 4, to: &bytes)
            for band in Band.allCases {
                bytes.append(contentsOf: #",""#.utf8)
                bytes.append(contentsOf: band.rawValue.utf8)
                bytes.append(contentsOf: #"":"#.utf8)
                Self.appendFixed(Double(levels[band]), decimals: 2, to: &bytes)
            }
            bytes.append(contentsOf: #","state":""#.utf8)
            bytes.append(contentsOf: state.rawValue.utf8)
            bytes.append(contentsOf: #""}"#.utf8)
        case .csv:
            Self.appendFixed(time, decimals: 4, to: &bytes)
            for band in Band.allCases {
                bytes.append(UInt8(ascii: ","))
                Self.appendFixed(Double(levels[band]), decimals: 2, to: &bytes)
            }
            bytes.append(UInt8(ascii: ","))
            bytes.append(contentsOf: state.rawValue.utf8)
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// A level 0…1 as cava's 0…1000 integer.
    static func asciiValue(_ level: Float) -> Int {
        guard level.isFinite else { return 0 }
        return Int((min(1, max(0, level)) * 1000).rounded())
    }

    public static func appendInteger(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendInteger(-value, to: &bytes)
            return
        }
        if value >= 10 { appendInteger(value / 10, to: &bytes) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// `value` rounded to `decimals` places, always with that many digits after the point.
    public static func appendFixed(_ value: Double, decimals: Int, to bytes: inout [UInt8]) {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let safe = value.isFinite ? min(max(value, -1e12), 1e12) : 0
        var scaled = Int((abs(safe) * Double(scale)).rounded())
        if safe < 0 && scaled != 0 { bytes.append(UInt8(ascii: "-")) }
        appendInteger(scaled / scale, to: &bytes)
        guard decimals > 0 else { return }
        bytes.append(UInt8(ascii: "."))
        scaled %= scale
        var divisor = scale / 10
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(scaled / divisor))
            scaled %= divisor
            divisor /= 10
        }
    }
}
