/// Packs bits LSB first (deflate's order) into a growable buffer, owned here and freed in `deinit`; reused
/// from image to image.
final class BitWriter {
    /// Where the next bytes go and the bits not stored yet. A value, so hot loops can keep it in registers
    /// (`withCursor`) instead of going through the object for every code.
    struct Cursor {
        fileprivate var next: UnsafeMutablePointer<UInt8>
        fileprivate var accumulator: UInt64 = 0
        fileprivate var pending = 0

        /// Appends the low `bits` (at most 32) of `value`, whose higher bits must be zero.
        @inline(__always)
        mutating func write(_ value: UInt32, bits: Int) {
            // No branch: store all 8 bytes and move past the whole ones. `pending` stays below 8, so the
            // accumulator holds at most 39 bits.
            accumulator |= UInt64(value) &<< UInt64(pending)
            pending &+= bits
            UnsafeMutableRawPointer(next).storeBytes(of: accumulator.littleEndian, as: UInt64.self)
            let whole = pending &>> 3
            next += whole
            accumulator &>>= UInt64(whole &* 8)
            pending &= 7
        }

        /// Appends a code packed as `value | bitCount << 32`.
        @inline(__always)
        mutating func write(packed: UInt64) {
            write(UInt32(truncatingIfNeeded: packed), bits: Int(truncatingIfNeeded: packed &>> 32))
        }
    }

    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var cursor: Cursor

    init(capacity: Int = 1 << 16) {
        self.capacity = capacity
        buffer = .allocate(capacity: capacity)
        cursor = Cursor(next: buffer)
    }

    deinit { buffer.deallocate() }

    /// Whole bytes stored so far.
    var count: Int { cursor.next - buffer }

    /// Starts over, empty.
    func reset() {
        cursor = Cursor(next: buffer)
    }

    /// Makes room for `bytes` more bytes of output (callers reserve before writing; writes don't check).
    func reserve(_ bytes: Int) {
        // Writes store 8 bytes at a time, and pending bits are not counted yet.
        let needed = count + bytes + 16
        guard needed > capacity else { return }
        let grown = max(needed, capacity * 2)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        let stored = count
        larger.update(from: buffer, count: stored)
        buffer.deallocate()
        buffer = larger
        capacity = grown
        cursor.next = larger + stored
    }

    func write(_ value: UInt32, bits: Int) { cursor.write(value, bits: bits) }

    /// Runs `body` with the cursor in a local variable.
    @inline(__always)
    func withCursor(_ body: (inout Cursor) -> Void) {
        var local = cursor
        body(&local)
        cursor = local
    }

    /// Pads with zero bits to a byte boundary and stores what is pending.
    func flush() {
        while cursor.pending > 0 {
            cursor.next.pointee = UInt8(truncatingIfNeeded: cursor.accumulator)
            cursor.next += 1
            cursor.accumulator >>= 8
            cursor.pending = max(0, cursor.pending - 8)
        }
        cursor.accumulator = 0
    }

    /// The bytes written (valid until the next write or reset).
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: buffer, count: count) }
}
