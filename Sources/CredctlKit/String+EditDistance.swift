extension String {
    /// How many single-character edits turn `self` into `other`: insertions, deletions,
    /// substitutions, and swaps of two neighbours (`sycn` → `sync` is one edit, as a typist
    /// makes it), counted by Character and ignoring case. This is the optimal-string-alignment
    /// form of the Damerau–Levenshtein distance: no substring is edited twice.
    func editDistance(to other: String) -> Int {
        let a = Array(lowercased()), b = Array(other.lowercased())
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        // Three rows of the usual table: the one before last is needed for swaps.
        var beforeLast = [Int](repeating: 0, count: b.count + 1)
        var last = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let substitution = last[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                row[j] = Swift.min(last[j] + 1, row[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = Swift.min(row[j], beforeLast[j - 2] + 1)
                }
            }
            (beforeLast, last, row) = (last, row, beforeLast)
        }
        return last[b.count]
    }

    /// Whether `self` could be a short form of `word`: its characters appear in `word` in order,
    /// starting with the same one, ignoring case (`ls` and `lis` for `list`, `rm` for `remove`).
    func abbreviates(_ word: String) -> Bool {
        let short = lowercased(), long = word.lowercased()
        guard let first = short.first, long.first == first else { return false }
        var rest = long[...]
        for character in short {
            guard let found = rest.firstIndex(of: character) else { return false }
            rest = rest[rest.index(after: found)...]
        }
        return true
    }
}
