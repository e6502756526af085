import CredentialVault
import Identifiers

/// Labels for ids, loaded once per command so lists do not query per row. An id whose record
/// is not on this device shows as the id itself.
struct RecordNames {
    private var hosts: [UUID: String] = [:]
    private var identities: [UUID: String] = [:]
    private var groups: [UUID: String] = [:]

    init(_ vault: Vault) throws {
        for host in try vault.hosts() { hosts[host.id] = host.label }
        for identity in try vault.identities() { identities[identity.id] = identity.label }
        for group in try vault.groups() { groups[group.id] = group.label }
    }

    func host(_ id: UUID) -> String { hosts[id] ?? CanonicalUUID.text(id) }
    func identity(_ id: UUID) -> String { identities[id] ?? CanonicalUUID.text(id) }
    func group(_ id: UUID) -> String { groups[id] ?? CanonicalUUID.text(id) }
}
