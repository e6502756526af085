import Identifiers

/// Config reads and the edits that involve no secret. None of them needs the vault unlocked.
extension Vault {
    public func hosts(inGroup groupID: UUID? = nil) throws(VaultError) -> [Host] { try VaultError.wrapping { try config.hosts(inGroup: groupID) } }
    public func host(_ labelOrID: String) throws(VaultError) -> Host { try VaultError.wrapping { try config.host(labelOrID) } }
    public func host(id: UUID) throws(VaultError) -> Host? { try VaultError.wrapping { try config.host(id: id) } }

    public func identities() throws(VaultError) -> [Identity] { try VaultError.wrapping { try config.identities() } }
    public func identity(_ labelOrID: String) throws(VaultError) -> Identity { try VaultError.wrapping { try config.identity(labelOrID) } }
    public func identity(id: UUID) throws(VaultError) -> Identity? { try VaultError.wrapping { try config.identity(id: id) } }

    public func groups() throws(VaultError) -> [HostGroup] { try VaultError.wrapping { try config.groups() } }
    public func group(_ labelOrID: String) throws(VaultError) -> HostGroup { try VaultError.wrapping { try config.group(labelOrID) } }
    public func group(id: UUID) throws(VaultError) -> HostGroup? { try VaultError.wrapping { try config.group(id: id) } }
    @discardableResult
    public func saveGroup(_ group: HostGroup) throws(VaultError) -> HostGroup { try VaultError.wrapping { try config.save(group) } }
    /// Removes a group; its hosts and subgroups move to its parent.
    public func removeGroup(_ labelOrID: String) throws(VaultError) {
        try VaultError.wrapping { try config.removeGroup(id: try config.group(labelOrID).id) }
    }

    public func forwards(forHost hostID: UUID? = nil) throws(VaultError) -> [PortForwardRule] { try VaultError.wrapping { try config.forwards(forHost: hostID) } }
    @discardableResult
    public func saveForward(_ rule: PortForwardRule) throws(VaultError) -> PortForwardRule { try VaultError.wrapping { try config.save(rule) } }
    /// The id of the forward `text` names: its id, or a unique start of it (four characters at least).
    public func forwardID(_ text: String) throws(VaultError) -> UUID { try VaultError.wrapping { try config.forwardID(text) } }
    public func removeForward(id: UUID) throws(VaultError) { try VaultError.wrapping { try config.removeForward(id: id) } }

    /// The vault's devices, as they announced themselves when they first synced.
    public func devices() throws(VaultError) -> [Device] { try VaultError.wrapping { try config.devices() } }

    /// Everything received that could not be applied, from both zones.
    public func quarantine() throws(VaultError) -> [QuarantineEntry] {
        try VaultError.wrapping { try config.quarantined() + secrets.quarantined() }
    }

    /// Drops the quarantined entry `id` of `zone` for good (after reading what `quarantine()`
    /// says about it). Throws `notFound` when there is no such entry.
    public func discardQuarantined(zone: SyncZone, id: Int64) throws(VaultError) {
        try VaultError.wrapping {
            let found = zone == .config ? try config.discardQuarantined(id: id) : try secrets.discardQuarantined(id: id)
            guard found else { throw VaultError(.notFound, "Nothing is quarantined as \(zone.rawValue)/\(id).", hint: "List what is: credctl quarantine list") }
        }
    }
}
