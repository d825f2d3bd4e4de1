/// The boolean capabilities of a compiled terminfo entry (term(5)), read from its bytes: what the terminal
/// described by `TERM` says it does. Only what the viewer asks is exposed. Any malformed entry (wrong magic,
/// sections past the end) says nothing rather than trapping: the file comes from outside.
public struct TerminfoEntry: Sendable, Equatable {
    /// The boolean capabilities in terminfo's order (term(5)); absent ones are false.
    private let booleans: [Bool]

    /// Index of `bce` (back_color_erase) among the booleans.
    static let backColorEraseIndex = 28
    /// Magic numbers: the legacy format (16-bit numbers) and the extended one (32-bit numbers).
    static let magics: Set<Int> = [0o432, 0o1036]

    /// Nil unless `bytes` start like a compiled terminfo entry whose boolean section fits.
    public init?(bytes: [UInt8]) {
        guard bytes.count >= 12 else { return nil }
        func short(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        let namesSize = short(2), booleanCount = short(4)
        guard Self.magics.contains(short(0)), namesSize < 0x8000, booleanCount < 0x8000 else { return nil }
        let start = 12 + namesSize
        guard start + booleanCount <= bytes.count else { return nil }
        booleans = bytes[start..<(start + booleanCount)].map { $0 == 1 }
    }

    /// Erasing (ECH, EL, ED) fills with the current background colour rather than the terminal's own.
    public var backColorErase: Bool {
        booleans.count > Self.backColorEraseIndex && booleans[Self.backColorEraseIndex]
    }
}
