/// A Prometheus text exposition read back by series: `lightshow_frames_total` or
/// `lightshow_reloads_total{result="ok"}` as written, to its value.
public struct ScrapedMetrics: Sendable {
    public let text: String
    public let values: [String: Double]

    public init(_ text: String) {
        self.text = text
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            let value = line[line.index(after: space)...]
            values[String(line[..<space])] = value == "+Inf" ? .infinity : Double(value)
        }
        self.values = values
    }

    public subscript(_ series: String) -> Double? { values[series] }
}
