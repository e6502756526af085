import ConfigTrack
import Identifiers

/// Parses ssh's forward syntax: `[BIND:]PORT:DEST:DESTPORT` (local, remote) and `[BIND:]PORT`
/// (dynamic). IPv6 addresses go in brackets.
public enum ForwardSpecification {
    /// The rule, held to the same rules as every saved or received forward.
    public static func parse(_ text: String, kind: ForwardKind, hostID: UUID) throws -> PortForwardRule {
        let rule = try rule(text, kind: kind, hostID: hostID)
        try VaultError.wrapping { try ConfigValidation.forward(rule) }
        return rule
    }

    private static func rule(_ text: String, kind: ForwardKind, hostID: UUID) throws -> PortForwardRule {
        let parts = try split(text)
        func port(_ token: String) throws -> Int {
            guard let number = Int(token) else { throw VaultError(.invalidInput, "'\(CanonicalUUID.printable(token))' in the forward '\(CanonicalUUID.printable(text))' is not a port number.") }
            return number
        }
        // ssh reads an empty bind address as "every interface", like '*'.
        func bind(_ token: String) -> String { token.isEmpty ? "*" : token }
        switch (kind, parts.count) {
        case (.dynamic, 1): return PortForwardRule(hostID: hostID, kind: kind, bindPort: try port(parts[0]))
        case (.dynamic, 2): return PortForwardRule(hostID: hostID, kind: kind, bindAddress: bind(parts[0]), bindPort: try port(parts[1]))
        case (_, 3) where kind != .dynamic:
            return PortForwardRule(hostID: hostID, kind: kind, bindPort: try port(parts[0]), destinationHost: parts[1], destinationPort: try port(parts[2]))
        case (_, 4) where kind != .dynamic:
            return PortForwardRule(hostID: hostID, kind: kind, bindAddress: bind(parts[0]), bindPort: try port(parts[1]), destinationHost: parts[2], destinationPort: try port(parts[3]))
        default:
            throw VaultError(.invalidInput, "'\(text)' is not a \(kind.rawValue) forward.",
                             hint: kind == .dynamic ? "Write [BIND:]PORT, e.g. 1080." : "Write [BIND:]PORT:DEST:DESTPORT, e.g. 8080:localhost:80.")
        }
    }

    /// Splits on ':' outside brackets, removing the brackets.
    private static func split(_ text: String) throws -> [String] {
        var parts: [String] = []
        var current = ""
        var inBrackets = false
        for character in text {
            switch character {
            // Brackets only enclose a whole part (an IPv6 address), never the middle of a word.
            case "[" where !inBrackets && current.isEmpty: inBrackets = true
            case "]" where inBrackets: inBrackets = false
            case "[", "]": throw VaultError(.invalidInput, "The forward '\(CanonicalUUID.printable(text))' has a bracket inside a word.")
            case ":" where !inBrackets: parts.append(current); current = ""
            default: current.append(character)
            }
        }
        guard !inBrackets else { throw VaultError(.invalidInput, "The forward '\(text)' has an unclosed '['.") }
        parts.append(current)
        return parts
    }
}
