/// The directives under one `Host` or `Match` line (or before the first of them).
public struct SSHConfigBlock: Sendable {
    public enum Kind: Sendable { case global, host, match }

    public let kind: Kind
    /// The Host patterns (or Match criteria).
    public let patterns: [String]
    public let location: String
    public internal(set) var lines: [SSHConfigLine] = []
    /// The Host pattern lists of the blocks whose Include brought this block in: it applies
    /// only to names they all match (ssh evaluates an included file within that Host).
    let guards: [[String]]
    /// Brought in by an Include inside a Match block, which is not evaluated: never applies.
    let inert: Bool
    /// The rest of a block after (or the start of an included file within) an Include.
    public let isContinuation: Bool

    init(kind: Kind, patterns: [String], location: String, guards: [[String]] = [], inert: Bool = false, isContinuation: Bool = false) {
        self.kind = kind
        self.patterns = patterns
        self.location = location
        self.guards = guards
        self.inert = inert
        self.isContinuation = isContinuation
    }

    /// The same block again, empty: where its directives continue after an Include.
    func continuation(at location: String) -> SSHConfigBlock {
        SSHConfigBlock(kind: kind, patterns: patterns, location: location, guards: guards, inert: inert, isContinuation: true)
    }

    /// Included inside another Host or a Match block, so it applies only within that one.
    public var isNested: Bool { !guards.isEmpty || inert }

    /// Included inside a Match block, which is not evaluated: it never applies.
    public var isInsideMatch: Bool { inert }

    /// Whether this block applies to the host alias `name`, as ssh decides for Host lines: some
    /// pattern matches and no negated one does. Match blocks never apply here (their criteria
    /// can run commands; they are not evaluated).
    public func applies(to name: String) -> Bool {
        guard !inert, guards.allSatisfy({ Self.list($0, matches: name) }) else { return false }
        switch kind {
        case .global: return true
        case .match: return false
        case .host: return Self.list(patterns, matches: name)
        }
    }

    /// The patterns that name one host (no wildcard, not negated) that this block applies to.
    public var concreteNames: [String] {
        guard kind == .host else { return [] }
        return patterns.filter { !$0.hasPrefix("!") && !$0.contains("*") && !$0.contains("?") && applies(to: $0) }
    }

    /// A Host line's rule: some pattern matches and no negated one does.
    package static func list(_ patterns: [String], matches name: String) -> Bool {
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
