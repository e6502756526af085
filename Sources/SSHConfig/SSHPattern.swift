/// ssh's wildcard patterns: `*` any run of characters, `?` one, letter case ignored.
enum SSHPattern {
    static func matches(_ pattern: String, _ name: String) -> Bool {
        match(Array(pattern.lowercased()), 0, Array(name.lowercased()), 0)
    }

    private static func match(_ pattern: [Character], _ p: Int, _ name: [Character], _ n: Int) -> Bool {
        if p == pattern.count { return n == name.count }
        switch pattern[p] {
        case "*":
            var index = n
            while index <= name.count {
                if match(pattern, p + 1, name, index) { return true }
                index += 1
            }
            return false
        case "?":
            return n < name.count && match(pattern, p + 1, name, n + 1)
        default:
            return n < name.count && pattern[p] == name[n] && match(pattern, p + 1, name, n + 1)
        }
    }
}
