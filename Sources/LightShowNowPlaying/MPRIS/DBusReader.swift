import CSystemd
import LightShowCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads whatever a peer sent into `DBusValue`s, whatever the signature, within caps: a hostile player's deep
/// nesting, huge arrays and huge strings cost it a skip, never a trap or a hang.
struct DBusReader {
    static let maximumDepth = 8
    static let maximumItems = 256
    static let maximumStringBytes = 4096

    let message: SDBusMessage
    private var pointer: OpaquePointer { message.message }

    /// The next complete value at this level; nil at the end of the current container (or of the message).
    func next(depth: Int = 0) throws(SDBusError) -> DBusValue? {
        var type: CChar = 0
        var contentsPointer: UnsafePointer<CChar>?
        let peeked = sd_bus_message_peek_type(pointer, &type, &contentsPointer)
        guard peeked >= 0 else { throw SDBusError("reading a message", code: peeked) }
        guard peeked > 0 else { return nil }
        let contents = contentsPointer.map { String(cString: $0) } ?? ""
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "a"), UInt8(ascii: "v"), UInt8(ascii: "r"), UInt8(ascii: "e"):
            guard depth < Self.maximumDepth else {
                try skip(Self.signature(type: type, contents: contents))
                return .unsupported
            }
            return try container(type: type, contents: contents, depth: depth)
        default:
            return try basic(type: type)
        }
    }

    /// The value of a container, entered and left again.
    private func container(type: CChar, contents: String, depth: Int) throws(SDBusError) -> DBusValue {
        let entered = sd_bus_message_enter_container(pointer, type, contents)
        guard entered > 0 else { throw SDBusError("reading a message", code: entered < 0 ? entered : -EBADMSG) }
        var items: [DBusValue] = []
        var entries: [String: DBusValue] = [:]
        let isDictionary = type == CChar(UInt8(ascii: "a")) && contents.hasPrefix("{")
        while items.count + entries.count < Self.maximumItems, let item = try next(depth: depth + 1) {
            if isDictionary {
                // Each element is a dict entry, read as [key, value].
                if case .array(let pair) = item, pair.count == 2, let key = pair[0].string { entries[key] = pair[1] }
            } else {
                items.append(item)
            }
        }
        // Whatever is past the cap is skipped element by element: sd-bus leaves an array only at its end.
        if type == CChar(UInt8(ascii: "a")) {
            while try hasMore() { try skip(contents) }
        }
        let left = sd_bus_message_exit_container(pointer)
        guard left >= 0 else { throw SDBusError("reading a message", code: left) }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "v"): return items.first ?? .unsupported
        case UInt8(ascii: "a") where isDictionary: return .dictionary(entries)
        default: return .array(items)
        }
    }

    private func hasMore() throws(SDBusError) -> Bool {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let peeked = sd_bus_message_peek_type(pointer, &type, &contents)
        guard peeked >= 0 else { throw SDBusError("reading a message", code: peeked) }
        return peeked > 0
    }

    private func skip(_ signature: String) throws(SDBusError) {
        let skipped = sd_bus_message_skip(pointer, signature)
        guard skipped >= 0 else { throw SDBusError("skipping part of a message", code: skipped) }
    }

    /// The complete signature of a container whose type and contents `peek_type` gave.
    private static func signature(type: CChar, contents: String) -> String {
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "a"): "a" + contents
        case UInt8(ascii: "r"): "(" + contents + ")"
        case UInt8(ascii: "e"): "{" + contents + "}"
        default: "v"
        }
    }

    private func basic(type: CChar) throws(SDBusError) -> DBusValue {
        func read<T>(_ initial: T) throws(SDBusError) -> T {
            var value = initial
            let result = withUnsafeMutablePointer(to: &value) { sd_bus_message_read_basic(pointer, type, $0) }
            guard result > 0 else { throw SDBusError("reading a message", code: result < 0 ? result : -EBADMSG) }
            return value
        }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            let text: UnsafePointer<CChar>? = try read(nil)
            guard let text else { return .string("") }
            // Read no further than the cap: a 100 MB title is never copied whole.
            let length = strnlen(text, Self.maximumStringBytes)
            return .string(text.withMemoryRebound(to: UInt8.self, capacity: length) {
                String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
            })
        case UInt8(ascii: "b"): return .boolean(try read(Int32(0)) != 0)
        case UInt8(ascii: "y"): return .unsigned(UInt64(try read(UInt8(0))))
        case UInt8(ascii: "n"): return .integer(Int64(try read(Int16(0))))
        case UInt8(ascii: "q"): return .unsigned(UInt64(try read(UInt16(0))))
        case UInt8(ascii: "i"): return .integer(Int64(try read(Int32(0))))
        case UInt8(ascii: "u"): return .unsigned(UInt64(try read(UInt32(0))))
        case UInt8(ascii: "x"): return .integer(try read(Int64(0)))
        case UInt8(ascii: "t"): return .unsigned(try read(UInt64(0)))
        case UInt8(ascii: "d"): return .double(try read(Double(0)))
        default:
            // A file descriptor ('h') or a type this reader doesn't know: skipped.
            try skip(String(UnicodeScalar(UInt8(bitPattern: type))))
            return .unsupported
        }
    }
}
