/// How `lightshow analyze` writes frames.
public enum AnalysisOutputFormat: String, CaseIterable, Sendable {
    /// `{"t":1.2333,"bass":0.82,"mid":0.10,"treble":0.02,"envelope":{"bass":0.82,…},"accent":{"bass":0.00,…},"state":"playing"}`
    case jsonl
    /// `t,bass,mid,treble,state` header, then one row per frame.
    case csv
    /// cava's raw ascii output with `ascii_max_range = 1000`: `B;M;T;` then `\n` (cava ends every bar with the delimiter).
    case ascii
    /// One line per onset as it is decided, `TIME BAND STRENGTH`: `12.3467 bass 0.84` (no line for a frame).
    case onsets
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
    public func line(_ frame: ShowFrame) -> String {
        var bytes: [UInt8] = []
        append(frame, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A frame of these levels, without envelope, accent or onsets, as a string.
    public func line(time: Double, levels: BandLevels, state: PlaybackState) -> String {
        line(ShowFrame(index: 0, time: time, levels: levels, state: state, title: ""))
    }

    /// Appends one frame's line (or for `onsets`, a line per onset), newline included.
    public func append(_ frame: ShowFrame, to bytes: inout [UInt8]) {
        let levels = frame.levels
        switch format {
        case .onsets:
            for onset in frame.onsets {
                Self.appendFixed(onset.time, decimals: 4, to: &bytes)
                bytes.append(UInt8(ascii: " "))
                bytes.append(contentsOf: onset.band.rawValue.utf8)
                bytes.append(UInt8(ascii: " "))
                Self.appendFixed(Double(min(1, max(0, onset.strength))), decimals: 2, to: &bytes)
                bytes.append(UInt8(ascii: "\n"))
            }
            return
        case .ascii:
            for band in Band.allCases {
                Self.appendInteger(Self.asciiValue(levels[band]), to: &bytes)
                bytes.append(UInt8(ascii: ";"))
            }
        case .jsonl:
            bytes.append(contentsOf: #"{"t":"#.utf8)
            Self.appendFixed(frame.time, decimals: 4, to: &bytes)
            Self.appendBands(levels, to: &bytes)
            bytes.append(contentsOf: #","envelope":{"#.utf8)
            Self.appendBands(frame.envelope, first: true, to: &bytes)
            bytes.append(contentsOf: #"},"accent":{"#.utf8)
            Self.appendBands(frame.accent, first: true, to: &bytes)
            bytes.append(contentsOf: #"},"state":""#.utf8)
            bytes.append(contentsOf: frame.state.rawValue.utf8)
            bytes.append(contentsOf: #""}"#.utf8)
        case .csv:
            Self.appendFixed(frame.time, decimals: 4, to: &bytes)
            for band in Band.allCases {
                bytes.append(UInt8(ascii: ","))
                Self.appendFixed(Double(levels[band]), decimals: 2, to: &bytes)
            }
            bytes.append(UInt8(ascii: ","))
            bytes.append(contentsOf: frame.state.rawValue.utf8)
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// `"bass":0.82,"mid":0.10,"treble":0.02`, after a comma unless `first`.
    private static func appendBands(_ levels: BandLevels, first: Bool = false, to bytes: inout [UInt8]) {
        for band in Band.allCases {
            if band != .bass || !first { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: band.rawValue.utf8)
            bytes.append(contentsOf: #"":"#.utf8)
            appendFixed(Double(levels[band]), decimals: 2, to: &bytes)
        }
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
