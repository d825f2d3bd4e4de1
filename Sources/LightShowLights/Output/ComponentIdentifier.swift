import LightShowSystem
public import Logging

/// The sACN CID: a UUID naming this source to receivers, which must stay the same across restarts (a new CID
/// is a new source, and receivers may hold the old one until it times out). A random version-4 UUID is made
/// once and stored in the state directory.
public struct ComponentIdentifier: Sendable, Equatable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// A new random version-4 UUID.
    public static func random() -> ComponentIdentifier {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40 // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80 // RFC 4122 variant
        return ComponentIdentifier(bytes: bytes)!
    }

    /// Parses the canonical `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` form (surrounding whitespace allowed).
    public init?(text: String) {
        let hex = text.filter { !$0.isWhitespace && $0 != "-" }
        guard hex.count == 32, text.filter({ $0 == "-" }).count == 4 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes: bytes)
    }

    public var description: String {
        let digits = Array("0123456789abcdef")
        var text = ""
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append("-") }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }

    /// The CID stored in `directory/cid`, created there (exclusively, never through a symlink) when missing.
    /// Without a directory, or when the file can't be read or written, a CID for this run only, with a warning:
    /// the lights still work, receivers just see a new source after a restart.
    public static func persistent(in directory: String?, logger: Logger) -> ComponentIdentifier {
        guard let directory, !directory.isEmpty else {
            logger.warning("no state directory: the sACN CID changes at every start")
            return random()
        }
        let file = SmallFile(path: directory + "/cid")
        do throws(SystemCallError) {
            for _ in 0..<2 {
                if let stored = try file.read(limit: 64) {
                    guard let cid = ComponentIdentifier(text: String(decoding: stored, as: UTF8.self)) else {
                        logger.warning("\(file.path) does not hold a UUID: the sACN CID changes at every start")
                        return random()
                    }
                    return cid
                }
                let made = random()
                // Another process may create it first; then the next turn reads theirs.
                if try file.create(Array((made.description + "\n").utf8)) { return made }
            }
        } catch {
            logger.warning("sACN CID not stored (\(error)): it changes at every start")
        }
        return random()
    }
}
