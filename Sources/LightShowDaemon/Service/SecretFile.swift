import LightShowCore
import LightShowSystem

/// A secret kept in a file of its own (a systemd credential, a 0600 file): `[mqtt] password_file`,
/// `[web] token_file`.
enum SecretFile {
    /// The file's first line; throws (exit 78) naming `key` when the file can't be read or holds no UTF-8 line.
    static func firstLine(of path: String, key: String, what: String) throws(LightShowError) -> String {
        let bytes: [UInt8]?
        do {
            bytes = try SmallFile(path: path).read(limit: 4096, followingSymlinks: true)
        } catch {
            throw LightShowError("\(key): \(error)", exitStatus: .config)
        }
        guard let bytes else { throw LightShowError("\(key): \(path) does not exist", exitStatus: .config) }
        let line = bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
        guard let text = String(validating: line, as: UTF8.self), !text.isEmpty else {
            throw LightShowError("\(key): expected \(what) as UTF-8 text on the first line of \(path)", exitStatus: .config)
        }
        return text
    }
}
