import LightShowCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a config file with plain POSIX calls, telling "not there" from "can't be read".
enum ConfigFile {
    /// Config files are small; anything larger is not one.
    static let maximumSize = 1 << 20

    static func read(_ path: String) throws(ConfigurationError) -> String {
        // Non-blocking, so a fifo (or a device) named as the config fails the check below instead of waiting for a
        // writer in open(2) or read(2).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            throw ConfigurationError(file: path, reason: code == ENOENT ? .notFound : .unreadable(describe(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ConfigurationError(file: path, reason: .unreadable(describe(errno))) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw ConfigurationError(file: path, reason: .unreadable("not a regular file"))
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ConfigurationError(file: path, reason: .unreadable(describe(errno)))
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
            guard bytes.count <= maximumSize else {
                throw ConfigurationError(file: path, reason: .unreadable("larger than \(maximumSize / 1024) KiB"))
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let diagnostic = ConfigDiagnostic(.error, keyPath: nil, "not valid UTF-8 text")
            throw ConfigurationError(file: path, reason: .invalid([diagnostic]))
        }
        return text
    }

    /// Whether `path` names a regular file (or a link to one).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
