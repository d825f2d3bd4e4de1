import LightShowCore
import LightShowSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a config file, telling "not there" from "can't be read".
enum ConfigFile {
    /// Config files are small; anything larger is not one.
    static let maximumSize = 1 << 20

    static func read(_ path: String) throws(ConfigurationError) -> String {
        // SmallFile opens without blocking, so a fifo (or a device) named as the config fails as not a regular file
        // instead of waiting for a writer; a link to a config file is followed.
        let contents: [UInt8]?
        do {
            contents = try SmallFile(path: path).read(limit: maximumSize, followingSymlinks: true)
        } catch {
            let reason = switch error.code {
            case EFBIG: "larger than \(maximumSize / 1024) KiB"
            case EINVAL: "not a regular file"
            default: describe(error.code)
            }
            throw ConfigurationError(file: path, reason: .unreadable(reason))
        }
        guard let bytes = contents else { throw ConfigurationError(file: path, reason: .notFound) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let diagnostic = ConfigDiagnostic(.error, keyPath: nil, "not valid UTF-8 text")
            throw ConfigurationError(file: path, reason: .invalid([diagnostic]))
        }
        return text
    }

    /// Whether `path` names a regular file (or a link to one).
    static func exists(_ path: String) -> Bool {
        guard let info = try? FileSystem.status(path) else { return false }
        return info.st_mode & S_IFMT == S_IFREG
    }

    private static func describe(_ code: Int32) -> String {
        SystemCallError.message(for: code)
    }
}
