extension ConfigValidation {
    /// The one set of rules each kind of record must pass, whichever path brings it: a local
    /// command, an importer (both save through the store), or a merge of a record received from
    /// another device — which is quarantined with the message of the rule it breaks.
    ///
    /// These are the rules about the record itself. Rules about other records (a label already
    /// taken, a named group or jump host that does not exist, a loop through jump hosts) are the
    /// store's, checked on local saves only: a received record may arrive before the records it
    /// names, and every reader of a chain stops at a loop.
    static func record(_ record: any ConfigRecord) throws {
        switch record {
        case let host as Host: try self.host(host)
        case let identity as Identity: try self.identity(identity)
        case let rule as PortForwardRule: try forward(rule)
        case let group as HostGroup:
            try label(group.label, kind: HostGroup.kind)
            if group.parentID == group.id { throw ConfigError(.invalid, "Group '\(CanonicalUUID.printable(group.label))' would contain itself.") }
        case let device as Device:
            try label(device.displayName, kind: "device")
        default:
            throw ConfigError(.invalid, "A record of kind '\(type(of: record).kind)' has no validation rules.")
        }
    }

    public static func host(_ host: Host) throws {
        try label(host.label, kind: Host.kind)
        var name: String { CanonicalUUID.printable(host.label) }
        try storedHostname(host.hostname)
        try port(host.port)
        if let username = host.username { try self.username(username) }
        // Another host's reference would make this host's prompt answered with that password.
        if let reference = host.passwordRef, reference != .hostPassword(host.id) {
            throw ConfigError(.invalid, "Host '\(name)' may only reference its own password (\(SecretReference.hostPassword(host.id))).")
        }
        if host.jumpHostID == host.id { throw ConfigError(.invalid, "Host '\(name)' would jump through itself (the jump hosts form a loop).") }
    }

    public static func identity(_ identity: Identity) throws {
        try label(identity.label, kind: Identity.kind)
        var name: String { CanonicalUUID.printable(identity.label) }
        if let username = identity.username { try self.username(username) }
        guard identity.privateKeyRef == .identityPrivateKey(identity.id),
              identity.passphraseRef == nil || identity.passphraseRef == .identityPassphrase(identity.id) else {
            throw ConfigError(.invalid, "Identity '\(name)' may only reference its own private key and passphrase.")
        }
        try publicKeyLine(identity.publicKey, keyType: identity.keyType, identity: name)
    }

    /// `TYPE BASE64 [comment]` on one line: the type the identity names, Base64, and a comment of
    /// printable text — a line `authorized_keys` or `ssh-add -L` could hold.
    static func publicKeyLine(_ line: String, keyType: KeyType, identity name: String) throws {
        let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        var valid = line.utf8.count <= 16_384 && fields.count >= 2 && fields[0] == keyType.rawValue && !fields[1].isEmpty
        if valid { valid = fields[1].utf8.allSatisfy(isBase64Byte) }
        if valid { valid = !line.unicodeScalars.contains(where: isInvisible) }
        guard valid else { throw ConfigError(.invalid, "Identity '\(name)' needs an OpenSSH public key line of type \(keyType.rawValue).") }
    }

    public static func forward(_ rule: PortForwardRule) throws {
        // ssh -R 0:… asks the server to pick the port; everywhere else 0 is not a port.
        if !(rule.kind == .remote && rule.bindPort == 0) { try port(rule.bindPort, field: "listening port") }
        if let bind = rule.bindAddress, bind != "*" { try storedHostname(bind, field: "bind address") }
        switch rule.kind {
        case .dynamic:
            guard rule.destinationHost == nil, rule.destinationPort == nil else {
                throw ConfigError(.invalid, "A dynamic (SOCKS) forward has no destination.")
            }
        case .local, .remote:
            guard let host = rule.destinationHost, let port = rule.destinationPort else {
                throw ConfigError(.invalid, "A \(rule.kind.rawValue) forward needs a destination host and port.")
            }
            try storedHostname(host, field: "destination host")
            try self.port(port, field: "destination port")
        }
    }

    private static func isBase64Byte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
    }

    /// A control, format, separator, private or unassigned character: nothing a person sees.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: true
        default: false
        }
    }
}
