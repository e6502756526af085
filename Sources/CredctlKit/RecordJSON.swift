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
            ("confirm", .bool(identity.confirm)),
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
