import Foundation

/// Files of the package itself (shipped config, units), found from this source file's location.
public enum PackagePaths {
    public static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// `path` relative to the package root, e.g. `config/lightshow.toml`.
    public static func file(_ path: String) -> String {
        root.appendingPathComponent(path).path
    }
}
