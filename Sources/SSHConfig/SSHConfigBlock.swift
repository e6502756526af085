/// The directives under one `Host` or `Match` line (or before the first of them).
public struct SSHConfigBlock: Sendable {
    public enum Kind: Sendable { case global, host, match }

    public let kind: Kind
    /// The Host patterns (or Match criteria).
    public let patterns: [String]
    public let location: String
    public internal(set) var lines: [SSHConfigLine] = []

    init(kind: Kind, patterns: [String], location: String) {
        self.kind = kind
        self.patterns = patterns
        self.location = location
    }

    /// Whether this block applies to the host alias `name`, as ssh decides for Host lines: some
    /// pattern matches and no negated one does. Match blocks never apply here (their criteria
    /// can run commands; they are not evaluated).
    public func applies(to name: String) -> Bool {
        switch kind {
        case .global: return true
        case .match: return false
        case .host:
            var matched = false
            for pattern in patterns {
                if pattern.hasPrefix("!") {
                    if SSHPattern.matches(String(pattern.dropFirst()), name) { return false }
                } else if SSHPattern.matches(pattern, name) {
                    matched = true
                }
            }
            return matched
        }
    }

    /// The patterns that name one host: no wildcard, not negated.
    public var concreteNames: [String] {
        kind == .host ? patterns.filter { !$0.hasPrefix("!") && !$0.contains("*") && !$0.contains("?") } : []
    }
}

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
