import Identifiers
import SQLite

extension ConfigStore {
    /// Port-forward rules, all or only one host's.
    public func forwards(forHost hostID: UUID? = nil) throws -> [PortForwardRule] {
        try read("list port forwards") { db in
            if let hostID { return try all(db, PortForwardRule.self, where: "host_id = ?", [CanonicalUUID.text(hostID)]) }
            return try all(db, PortForwardRule.self)
        }
    }

    public func forward(id: UUID) throws -> PortForwardRule? {
        try read("read a port forward") { try find($0, PortForwardRule.self, id: id) }
    }

    /// Validates and stores a rule: local and remote rules need a destination, dynamic ones none.
    @discardableResult
    public func save(_ rule: PortForwardRule) throws -> PortForwardRule {
        try write("save a port forward") { db in try persist(db, try validated(db, rule)) }
    }

    /// The checks of `save`, inside its transaction; returns the rule normalized.
    func validated(_ db: Connection, _ rule: PortForwardRule) throws -> PortForwardRule {
        var rule = rule
        guard try find(db, Host.self, id: rule.hostID) != nil else { throw ConfigError(.notFound, "The port forward names a host that does not exist.") }
        // Normalized first (brackets dropped), then held to the rules every path shares.
        if let bind = rule.bindAddress, bind != "*" { rule.bindAddress = try ConfigValidation.hostname(bind, field: "bind address") }
        if let host = rule.destinationHost { rule.destinationHost = try ConfigValidation.hostname(host, field: "destination host") }
        try ConfigValidation.forward(rule)
        let duplicate = try all(db, PortForwardRule.self, where: "host_id = ? AND id != ?", [CanonicalUUID.text(rule.hostID), CanonicalUUID.text(rule.id)])
            .contains { $0.kind == rule.kind && $0.specification == rule.specification }
        if duplicate { throw ConfigError(.alreadyExists, "The host already has the \(rule.kind.rawValue) forward \(rule.specification).") }
        return rule
    }

    /// The forward whose id is `text` or starts with it (four characters at least).
    public func forwardID(_ text: String) throws -> UUID {
        if let id = CanonicalUUID.parseAnyCase(text) { return id }
        guard let id = try read("find a port forward", { db in try id(db, PortForwardRule.self, prefix: text) }) else {
            throw ConfigError(.notFound, "No port forward '\(CanonicalUUID.printable(text))'.", hint: "List them with: credctl forward list")
        }
        return id
    }

    public func removeForward(id: UUID) throws {
        try write("remove a port forward") { db in
            guard let rule = try find(db, PortForwardRule.self, id: id) else { throw ConfigError(.notFound, "No port forward with that id.") }
            try erase(db, rule)
        }
    }
}
