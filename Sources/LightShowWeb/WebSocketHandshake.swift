/// The checks RFC 6455 §4.2.1 asks of an opening handshake's headers, made before the upgrade handler sees them:
/// it closes a connection without a word when they fail, where a client deserves a 400 that says why.
public enum WebSocketHandshake {
    /// What is wrong with the handshake's key and version; nil when both are as the RFC asks.
    public static func problem(key: String?, version: String?) -> String? {
        guard let key else { return "the Sec-WebSocket-Key header is missing" }
        guard isNonce(key) else { return "Sec-WebSocket-Key must be 16 bytes in base64 (24 characters)" }
        guard version == "13" else { return "Sec-WebSocket-Version must be 13" }
        return nil
    }

    /// 16 bytes in base64: 22 characters of its alphabet, the last of them carrying 2 bits, then `==`.
    private static func isNonce(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard bytes.count == 24, bytes[22] == UInt8(ascii: "="), bytes[23] == UInt8(ascii: "=") else { return false }
        return bytes[..<22].allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
        }
    }
}
