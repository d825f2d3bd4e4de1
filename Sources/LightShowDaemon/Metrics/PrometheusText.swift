public import LightShowEngine

/// Metric families in the Prometheus text exposition format 0.0.4, for `GET /metrics`.
///
/// Written here rather than with swift-server/swift-prometheus 2.4.1. Measured in throwaway static-stdlib release
/// builds of one program writing the same families: the library adds 0.38 MB to the stripped binary (1.27 MB
/// unstripped) and 0.6-0.7 MB of resident memory (7.1 MB against 6.5 MB after one exposition), more than the
/// daemon's whole +0.5 MB budget with the web off. And its metrics are a store of their own: the daemon already
/// counts xruns, reopens, packets and subscribers, which would have to be copied into it, and its histogram takes a
/// lock per observation, which the audio path must not. The format is an output only (no parsing), so this writer
/// reads the values where they are kept and costs nothing until a scrape. Measured in the daemon's release build
/// (web off, demo input, four paired runs against the same build without metrics): 0.26 MB more binary, 0.1-0.2 MB
/// more resident (code pages), about 0.01 MB more private dirty memory.
public struct PrometheusText: Sendable {
    public enum MetricType: String, Sendable {
        case counter, gauge, histogram
    }

    /// One sample's labels, in order: `[("output", "lights[1]")]`.
    public typealias Labels = [(name: String, value: String)]

    /// The exposition so far.
    public private(set) var text = ""

    public init() {}

    /// A family of single-valued samples (counter or gauge): `# HELP`, `# TYPE`, then one line per sample. A
    /// family without samples writes nothing (an output list that is empty).
    public mutating func family(_ name: String, _ type: MetricType, help: String, samples: [(labels: Labels, value: Double)]) {
        guard !samples.isEmpty else { return }
        header(name, type, help: help)
        for sample in samples { line(name, sample.labels, Self.format(sample.value)) }
    }

    /// A family of one unlabelled sample.
    public mutating func family(_ name: String, _ type: MetricType, help: String, value: Double) {
        family(name, type, help: help, samples: [([], value)])
    }

    /// A histogram: cumulative `_bucket` lines up to `le="+Inf"`, then `_sum` and `_count` (equal to the `+Inf`
    /// bucket, as the format requires).
    public mutating func histogram(_ name: String, help: String, _ histogram: HistogramSnapshot) {
        header(name, .histogram, help: help)
        var cumulative: UInt64 = 0
        for (index, bound) in histogram.upperBounds.enumerated() {
            cumulative &+= histogram.bucketCounts[index]
            line(name + "_bucket", [("le", Self.format(bound))], String(cumulative))
        }
        cumulative &+= histogram.bucketCounts[histogram.upperBounds.count]
        line(name + "_bucket", [("le", "+Inf")], String(cumulative))
        line(name + "_sum", [], Self.format(histogram.sum))
        line(name + "_count", [], String(cumulative))
    }

    private mutating func header(_ name: String, _ type: MetricType, help: String) {
        assert(Self.isValidName(name), "metric name \(name)")
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(type.rawValue)\n"
    }

    private mutating func line(_ name: String, _ labels: Labels, _ value: String) {
        text += name
        if !labels.isEmpty {
            text += "{"
            for (index, label) in labels.enumerated() {
                assert(Self.isValidName(label.name) && !label.name.contains(":"), "label name \(label.name)")
                if index > 0 { text += "," }
                text += label.name + "=\"" + Self.escapeLabelValue(label.value) + "\""
            }
            text += "}"
        }
        text += " " + value + "\n"
    }

    /// A sample value: integers without a fraction, `+Inf`, `-Inf` and `NaN` as the format spells them.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Inf" : "+Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }

    /// Label values escape `\`, `"` and line feeds; any other character (valid UTF-8, as every String is) stays.
    static func escapeLabelValue(_ value: String) -> String {
        escape(value, quote: true)
    }

    /// Help text escapes `\` and line feeds.
    static func escapeHelp(_ help: String) -> String {
        escape(help, quote: false)
    }

    private static func escape(_ value: String, quote: Bool) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\n" || $0 == "\r\n" || (quote && $0 == "\"") }) else { return value }
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\"" where quote: escaped += "\\\""
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// `[a-zA-Z_:][a-zA-Z0-9_:]*`: names come from the code, never from outside, so a bad one is a bug.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
        }
    }
}
