import Identifiers
import SQLite

extension ConfigStore {
    /// All groups, by label.
    public func groups() throws -> [HostGroup] {
        try read("list groups") { try all($0, HostGroup.self) }
    }

    /// The group with this label or id.
    public func group(_ labelOrID: String) throws -> HostGroup {
        try read("read group '\(CanonicalUUID.printable(labelOrID))'") { try find($0, HostGroup.self, labelOrID: labelOrID) }
    }

    public func group(id: UUID) throws -> HostGroup? {
        try read("read a group") { try find($0, HostGroup.self, id: id) }
    }

    /// Validates and stores a new or changed group; its parent chain must not loop.
    @discardableResult
    public func save(_ group: HostGroup) throws -> HostGroup {
        try write("save group '\(CanonicalUUID.printable(group.label))'") { db in try persist(db, try validated(db, group)) }
    }

    /// The checks of `save`, inside its transaction.
    func validated(_ db: Connection, _ group: HostGroup) throws -> HostGroup {
        var group = group
        group.label = try freeLabel(db, group)
        var seen: Set<UUID> = [group.id]
        var next = group.parentID
        while let id = next {
            guard !seen.contains(id) else { throw ConfigError(.invalid, "Group '\(group.label)' would contain itself.") }
            seen.insert(id)
            guard let parent = try find(db, HostGroup.self, id: id) else {
                throw ConfigError(.notFound, "Group '\(group.label)' names a parent group that does not exist.")
            }
            next = parent.parentID
        }
        return group
    }

    /// Removes a group. Its hosts and child groups move up to its parent (or to the top level),
    /// each as an ordinary journaled edit, so nothing disappears with the folder.
    public func removeGroup(id: UUID) throws {
        try write("remove a group") { db in
            guard let group = try find(db, HostGroup.self, id: id) else { throw ConfigError(.notFound, "No such group.") }
            let key = CanonicalUUID.text(id)
            for var host in try all(db, Host.self, where: "group_id = ?", [key]) {
                host.groupID = group.parentID
                _ = try persist(db, host)
            }
            for var child in try all(db, HostGroup.self, where: "parent_id = ?", [key]) {
                child.parentID = group.parentID
                _ = try persist(db, child)
            }
            try erase(db, group)
        }
    }
}
