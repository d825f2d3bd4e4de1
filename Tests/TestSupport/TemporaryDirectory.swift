import Foundation

/// A scratch directory removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL
    public var path: String { url.path }

    public init(_ label: String = "lightshow-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    @discardableResult
    public func write(_ name: String, _ data: Data) throws -> String {
        let path = file(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
