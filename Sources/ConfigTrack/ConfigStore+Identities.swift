import Identifiers
import SQLite

extension ConfigStore {
    /// All identities, by label.
    public func identities() throws -> [Identity] {
        try read("list identities") { try all($0, Identity.self) }
    }

    /// The identity with this label or id.
    public func identity(_ labelOrID: String) throws -> Identity {
        try read("read identity '\(CanonicalUUID.printable(labelOrID))'") { try find($0, Identity.self, labelOrID: labelOrID) }
    }

    public func identity(id: UUID) throws -> Identity? {
        try read("read an identity") { try find($0, Identity.self, id: id) }
    }

    /// Validates and stores a new or changed identity.
    @discardableResult
    public func save(_ identity: Identity) throws -> Identity {
        try write("save identity '\(CanonicalUUID.printable(identity.label))'") { db in
            try persist(db, try validated(db, identity))
        }
    }

    /// Checks an identity as `save` would, without storing it.
    public func validate(_ identity: Identity) throws {
        try read("check identity '\(CanonicalUUID.printable(identity.label))'") { db in _ = try validated(db, identity) }
    }

    /// The identity as `save` stores it (its label in NFC), once checked.
    func validated(_ db: Connection, _ identity: Identity) throws -> Identity {
        var identity = identity
        identity.label = try freeLabel(db, identity)
        try ConfigValidation.identity(identity)
        return identity
    }

    /// Removes an identity. Refuses while hosts use it.
    public func removeIdentity(id: UUID) throws {
        try write("remove an identity") { db in
            guard let identity = try find(db, Identity.self, id: id) else { throw ConfigError(.notFound, "No such identity.") }
            let users = try all(db, Host.self, where: "identity_id = ?", [CanonicalUUID.text(id)])
            if !users.isEmpty {
                throw ConfigError(.inUse, "Identity '\(identity.label)' is used by \(users.map { "'\($0.label)'" }.joined(separator: ", ")).",
                                  hint: "Give those hosts another identity or remove them first.")
            }
            try erase(db, identity)
        }
    }
}
