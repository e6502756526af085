import Identifiers
import SQLite

extension ConfigStore {
    /// All hosts, by label; only those directly in `groupID` when given.
    public func hosts(inGroup groupID: UUID? = nil) throws -> [Host] {
        try read("list hosts") { db in
            if let groupID { return try all(db, Host.self, where: "group_id = ?", [CanonicalUUID.text(groupID)]) }
            return try all(db, Host.self)
        }
    }

    /// The host with this label or id.
    public func host(_ labelOrID: String) throws -> Host {
        try read("read host '\(CanonicalUUID.printable(labelOrID))'") { try find($0, Host.self, labelOrID: labelOrID) }
    }

    public func host(id: UUID) throws -> Host? {
        try read("read a host") { try find($0, Host.self, id: id) }
    }

    /// Validates and stores a new or changed host; returns it with its new version.
    @discardableResult
    public func save(_ host: Host) throws -> Host {
        try write("save host '\(CanonicalUUID.printable(host.label))'") { db in try persist(db, try validated(db, host)) }
    }

    /// Checks a host as `save` would, without storing it (so a caller can check before writing
    /// the host's secret).
    public func validate(_ host: Host) throws {
        _ = try read("check host '\(CanonicalUUID.printable(host.label))'") { db in try validated(db, host) }
    }

    func validated(_ db: Connection, _ host: Host) throws -> Host {
        var host = host
        host.label = try freeLabel(db, host)
        host.hostname = try ConfigValidation.hostname(host.hostname)
        try ConfigValidation.host(host)
        if let identityID = host.identityID, try find(db, Identity.self, id: identityID) == nil {
            throw ConfigError(.notFound, "Host '\(host.label)' names an identity that does not exist.")
        }
        if let groupID = host.groupID, try find(db, HostGroup.self, id: groupID) == nil {
            throw ConfigError(.notFound, "Host '\(host.label)' names a group that does not exist.")
        }
        try checkJumpChain(db, for: host)
        return host
    }

    /// Removes a host and its port-forward rules. Refuses while another host jumps through it.
    public func removeHost(id: UUID) throws {
        try write("remove a host") { db in
            guard let host = try find(db, Host.self, id: id) else { throw ConfigError(.notFound, "No such host.") }
            let dependents = try all(db, Host.self, where: "jump_host_id = ?", [CanonicalUUID.text(id)])
            if !dependents.isEmpty {
                throw ConfigError(.inUse, "Host '\(host.label)' is the jump host of \(dependents.map { "'\($0.label)'" }.joined(separator: ", ")).",
                                  hint: "Change or remove their jump host first.")
            }
            for rule in try all(db, PortForwardRule.self, where: "host_id = ?", [CanonicalUUID.text(id)]) {
                try erase(db, rule)
            }
            try erase(db, host)
        }
    }

    /// The jump host must exist, differ from the host, and not lead back to it.
    private func checkJumpChain(_ db: Connection, for host: Host) throws {
        var seen: Set<UUID> = [host.id]
        var next = host.jumpHostID
        while let id = next {
            guard !seen.contains(id) else {
                throw ConfigError(.invalid, "Host '\(host.label)' would jump through itself (the jump hosts form a loop).")
            }
            seen.insert(id)
            guard let jump = try find(db, Host.self, id: id) else {
                throw ConfigError(.notFound, "Host '\(host.label)' names a jump host that does not exist.")
            }
            next = jump.jumpHostID
        }
    }
}
