/// A key the viewer reacts to.
public enum Key: Equatable, Sendable {
    case character(Character)
    case escape
    case left, right, up, down
    case tab
    case enter
    /// Ctrl-C typed while the terminal doesn't turn it into SIGINT.
    case interrupt
    case other
}

/// Bytes read from a raw-mode terminal → keys. Arrow keys come as `ESC [ C` or `ESC O C`; an ESC at the end of a
/// read is the Esc key itself (terminals send a whole sequence in one write).
public enum KeyDecoder {
    public static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x1B:
                // DCS (ESC P … ESC \): a terminal's late answer to a question (TerminalColorQuery), not keys.
                if index < bytes.count, bytes[index] == 0x50 {
                    var end = index + 1
                    while end + 1 < bytes.count, !(bytes[end] == 0x1B && bytes[end + 1] == 0x5C) { end += 1 }
                    index = min(bytes.count, end + 2)
                    keys.append(.other)
                    continue
                }
                guard index < bytes.count, bytes[index] == 0x5B || bytes[index] == 0x4F else {
                    keys.append(.escape)
                    continue
                }
                // CSI/SS3: skip parameters up to the final byte (0x40…0x7E).
                var end = index + 1
                while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                guard end < bytes.count else { index = bytes.count; keys.append(.other); continue }
                switch bytes[end] {
                case 0x41: keys.append(.up)
                case 0x42: keys.append(.down)
                case 0x43: keys.append(.right)
                case 0x44: keys.append(.left)
                default: keys.append(.other)
                }
                index = end + 1
            case 0x09: keys.append(.tab)
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x03: keys.append(.interrupt)
            case 0x20...0x7E: keys.append(.character(Character(Unicode.Scalar(byte))))
            default: keys.append(.other)
            }
        }
        return keys
    }
}
