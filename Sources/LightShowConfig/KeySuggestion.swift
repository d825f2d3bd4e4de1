/// "Did you mean …?" for misspelt keys, by edit distance.
enum KeySuggestion {
    /// The known key closest to `key`, if it is close enough to be a plausible typo.
    static func closest(to key: String, among candidates: [String]) -> String? {
        let target = Array(key.lowercased())
        var best: (key: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.lowercased()))
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let allowed = max(2, best.key.count / 3)
        let isAffix = key.count >= 3 && (best.key.hasPrefix(key) || key.hasPrefix(best.key))
        return best.distance <= allowed || isAffix ? best.key : nil
    }

    /// Levenshtein distance (insertions, deletions, substitutions), two rows of memory.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
