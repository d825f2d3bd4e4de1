import LightShowCore

/// One sequence counter per receiver stream (`DestinationKey`), kept across reloads so a receiver never sees
/// the numbers jump back (E1.31 receivers drop packets up to 20 behind the last).
struct SequenceCounters {
    private var last: [DestinationKey: UInt8] = [:]

    /// The next number for `key`: DDP's low nibble 1…15, Art-Net 1…255 (0 would switch its reordering off),
    /// sACN 0…255, WLED audio sync 1…255 then 0….
    mutating func next(for key: DestinationKey) -> UInt8 {
        let previous = last[key] ?? 0
        let next: UInt8
        switch key.networkProtocol {
        case .ddp: next = previous >= 15 ? 1 : previous + 1
        case .artnet: next = previous == 255 ? 1 : previous + 1
        case .sacn, .hue: next = last[key] == nil ? 0 : previous &+ 1
        case .wledSync: next = previous &+ 1 // every packet: WLED-MM drops one whose counter didn't advance
        }
        last[key] = next
        return next
    }

    /// Forgets streams no output uses any more.
    mutating func keep(only keys: Set<DestinationKey>) {
        last = last.filter { keys.contains($0.key) }
    }
}
