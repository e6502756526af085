import FoundationEssentials
import CredentialVault

/// The JSON shapes of records. Field names are a contract for scripts: add, never rename.
enum RecordJSON {
    static func host(_ host: Host, names: RecordNames) -> JSONValue {
        .object([
            ("id", .string(CanonicalUUID.text(host.id))), ("label", .string(host.label)),
            ("hostname", .string(host.hostname)), ("port", .int(host.port)), ("user", .optional(host.username)),
            ("auth", .string(host.authMethod.rawValue)),
            ("identity", .optional(host.identityID.map(names.identity))), ("group", .optional(host.groupID.map(names.group))),
            ("jump", .optional(host.jumpHostID.map(names.host))),
            ("password_ref", .optional(host.passwordRef?.key)),
        ])
    }

    static func identity(_ identity: Identity) -> JSONValue {
        .object([
            ("id", .string(CanonicalUUID.text(identity.id))), ("label", .string(identity.label)), ("user", .optional(identity.username)),
            ("key_type", .string(identity.keyType.rawValue)), ("public_key", .string(identity.publicKey)),
            ("private_key_ref", .string(identity.privateKeyRef.key)), ("passphrase_ref", .optional(identity.passphraseRef?.key)),
        ])
    }

    static func group(_ group: HostGroup, names: RecordNames) -> JSONValue {
        .object([("id", .string(CanonicalUUID.text(group.id))), ("label", .string(group.label)), ("parent", .optional(group.parentID.map(names.group)))])
    }

    static func forward(_ rule: PortForwardRule, names: RecordNames) -> JSONValue {
        .object([
            ("id", .string(CanonicalUUID.text(rule.id))), ("host", .string(names.host(rule.hostID))), ("kind", .string(rule.kind.rawValue)),
            ("bind_address", .optional(rule.bindAddress)), ("bind_port", .int(rule.bindPort)),
            ("destination_host", .optional(rule.destinationHost)), ("destination_port", .optional(rule.destinationPort)),
            ("spec", .string(rule.specification)),
        ])
    }
}

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
