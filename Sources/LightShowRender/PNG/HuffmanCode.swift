/// A canonical Huffman code (RFC 1951 §3.2.2) built from symbol counts, no code longer than a limit.
struct HuffmanCode {
    /// Code length of each symbol; 0 for a symbol that doesn't occur.
    private(set) var lengths: [UInt8]
    /// Each symbol's code, bit-reversed for deflate's LSB-first packing.
    private(set) var codes: [UInt32]

    /// At least two symbols always get a code (ones with a count of 0 are given one if needed), so the code is
    /// complete: zlib rejects an incomplete code with more than one symbol, and a lone 1-bit code is a special case.
    init(counts: [UInt32], limit: Int) {
        var weights = counts
        var used = weights.indices.filter { weights[$0] > 0 }
        for symbol in weights.indices where used.count < 2 && weights[symbol] == 0 {
            weights[symbol] = 1
            used.append(symbol)
        }
        var lengths = Self.treeDepths(weights)
        // Too deep (very skewed counts): flatten the counts and rebuild; each halving brings the depths down.
        while lengths.contains(where: { Int($0) > limit }) {
            weights = weights.map { $0 == 0 ? 0 : ($0 + 1) / 2 }
            lengths = Self.treeDepths(weights)
        }
        self.lengths = lengths
        codes = Self.canonicalCodes(lengths)
    }

    /// Depth of each symbol in a Huffman tree over the non-zero `weights` (two-queue construction, ties broken by
    /// symbol so the result depends only on the counts).
    private static func treeDepths(_ weights: [UInt32]) -> [UInt8] {
        // Sorted by weight, then symbol: both packed in one integer key.
        let leaves = weights.indices.filter { weights[$0] > 0 }.map { UInt64(weights[$0]) << 16 | UInt64($0) }.sorted().map { Int($0 & 0xFFFF) }
        let leafCount = leaves.count
        var nodeWeight = leaves.map { UInt64(weights[$0]) } + [UInt64](repeating: 0, count: max(0, leafCount - 1))
        var parent = [Int](repeating: 0, count: nodeWeight.count)
        var nextLeaf = 0, nextInner = leafCount, newInner = leafCount
        func takeSmallest() -> Int {
            if nextLeaf < leafCount && (nextInner == newInner || nodeWeight[nextLeaf] <= nodeWeight[nextInner]) {
                nextLeaf += 1
                return nextLeaf - 1
            }
            nextInner += 1
            return nextInner - 1
        }
        while newInner < nodeWeight.count {
            let a = takeSmallest(), b = takeSmallest()
            nodeWeight[newInner] = nodeWeight[a] + nodeWeight[b]
            parent[a] = newInner
            parent[b] = newInner
            newInner += 1
        }
        // Parents come after their children, so one backward pass gives every depth (the root, last, is 0).
        var depth = [Int](repeating: 0, count: nodeWeight.count)
        for node in stride(from: nodeWeight.count - 2, through: 0, by: -1) { depth[node] = depth[parent[node]] + 1 }
        var lengths = [UInt8](repeating: 0, count: weights.count)
        for (leaf, symbol) in leaves.enumerated() { lengths[symbol] = UInt8(depth[leaf]) }
        return lengths
    }

    private static func canonicalCodes(_ lengths: [UInt8]) -> [UInt32] {
        let maxLength = Int(lengths.max() ?? 0)
        var lengthCounts = [Int](repeating: 0, count: maxLength + 1)
        for length in lengths where length > 0 { lengthCounts[Int(length)] += 1 }
        var next = [Int](repeating: 0, count: maxLength + 1)
        var code = 0
        for bits in stride(from: 1, through: maxLength, by: 1) {
            code = (code + lengthCounts[bits - 1]) << 1
            next[bits] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            let value = UInt32(next[Int(length)])
            next[Int(length)] += 1
            return reversed16(value) >> (16 - UInt32(length))
        }
    }

    /// The low 16 bits of `value` in reverse order.
    private static func reversed16(_ value: UInt32) -> UInt32 {
        var v = value
        v = (v & 0x5555) << 1 | (v >> 1) & 0x5555
        v = (v & 0x3333) << 2 | (v >> 2) & 0x3333
        v = (v & 0x0F0F) << 4 | (v >> 4) & 0x0F0F
        return (v & 0x00FF) << 8 | (v >> 8) & 0x00FF
    }
}
