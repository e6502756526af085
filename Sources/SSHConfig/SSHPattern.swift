/// ssh's wildcard patterns: `*` any run of characters, `?` one, letter case ignored.
package enum SSHPattern {
    /// Matches left to right, remembering only the last `*` to fall back to: a mismatch after
    /// it lets that `*` take one more character. Earlier stars never need revisiting (whatever
    /// they could take, the last one can), so the work is at most pattern × name and needs no
    /// recursion. Trying every split for every star instead grows exponentially with the
    /// number of stars: a Host line of a few dozen `*` hung `import ssh-config`, and a long
    /// pattern recursed once per character.
    package static func matches(_ pattern: String, _ name: String) -> Bool {
        let pattern = Array(pattern.lowercased()), name = Array(name.lowercased())
        var p = 0, n = 0
        var lastStar: Int?, starTakesUpTo = 0
        while n < name.count {
            if p < pattern.count, pattern[p] == "*" {
                lastStar = p
                starTakesUpTo = n
                p += 1
            } else if p < pattern.count, pattern[p] == "?" || pattern[p] == name[n] {
                p += 1
                n += 1
            } else if let star = lastStar {
                starTakesUpTo += 1
                n = starTakesUpTo
                p = star + 1
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
