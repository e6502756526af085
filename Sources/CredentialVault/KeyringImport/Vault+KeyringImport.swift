import ConfigTrack
import Keyring
import SecretTrack

extension Vault {
    /// Brings passwords found in the desktop keyring in as hosts, device-only (the every-unlock
    /// migration makes them syncable once a remote is bound).
    ///
    /// An item becomes a host when its attributes name an SSH host (`KeyringHostFields`; with
    /// `requireProtocol`, a `protocol` attribute must say so); CredentialVault's own items are
    /// left out. A host with the same host name, port and user is the same host,
    /// so importing again creates nothing new: a host without a password gets the item's, a host
    /// whose password is the same is unchanged, and a different password in the vault is kept
    /// (the vault is the source of truth once imported). A new host is labelled with the item's
    /// label when it is a valid label without spaces, else `user@host`, made unique with `-2`,
    /// `-3`, …. With `dryRun`, nothing is written and no secret is opened; items need their
    /// secrets loaded otherwise (those of a locked collection are skipped). Needs the vault
    /// unlocked to write.
    public func importKeyringItems(_ items: [KeyringItem], dryRun: Bool, requireProtocol: Bool) throws(VaultError) -> [KeyringImportEntry] {
        try VaultError.wrapping {
            var hosts = try config.hosts()
            var entries: [KeyringImportEntry] = []
            let ordered = items.filter { !Self.isOwnKeyringItem($0.attributes) }
                .sorted { ($0.label, $0.attributes.sorted { $0.key < $1.key }.description) < ($1.label, $1.attributes.sorted { $0.key < $1.key }.description) }
            for item in ordered {
                let fields: KeyringHostFields
                switch KeyringHostFields.parse(item.attributes, requireProtocol: requireProtocol) {
                case .failure(let skip):
                    entries.append(KeyringImportEntry(itemLabel: item.label, action: .skipped, host: nil, endpoint: nil, reason: skip.reason))
                    continue
                case .success(let parsed):
                    fields = parsed
                }
                if !dryRun && item.secret == nil {
                    entries.append(KeyringImportEntry(itemLabel: item.label, action: .skipped, host: nil, endpoint: fields.endpoint,
                                                      reason: item.locked ? KeyringImportEntry.lockedReason : "its secret could not be read"))
                    continue
                }
                if let index = hosts.firstIndex(where: fields.matches) {
                    let (action, updated, reason) = try importPassword(item.secret, into: hosts[index], dryRun: dryRun)
                    hosts[index] = updated
                    entries.append(KeyringImportEntry(itemLabel: item.label, action: action, host: updated.label, endpoint: fields.endpoint, reason: reason))
                    continue
                }
                let label = Self.importLabel(item.label, fields, taken: Set(hosts.map { $0.label.lowercased() }))
                var host = Host(label: label, hostname: fields.hostname, port: fields.port, username: fields.username, authMethod: .password)
                if let secret = item.secret, !dryRun {
                    host = try addHost(host, password: secret, availability: .deviceOnly)
                } else {
                    host.passwordRef = .hostPassword(host.id)  // as the real run would leave it, for the items after it
                }
                hosts.append(host)
                entries.append(KeyringImportEntry(itemLabel: item.label, action: .created, host: label, endpoint: fields.endpoint, reason: nil))
            }
            return entries
        }
    }

    private func importPassword(_ secret: SecretBytes?, into host: Host, dryRun: Bool) throws -> (KeyringImportEntry.Action, Host, String?) {
        guard let reference = host.passwordRef else {
            guard let secret, !dryRun else {
                var planned = host
                planned.passwordRef = .hostPassword(host.id)
                return (.passwordAdded, planned, nil)
            }
            return (.passwordAdded, try updateHost(host, password: .set(secret), availability: .deviceOnly), nil)
        }
        guard let secret, !dryRun else { return (.exists, host, nil) }
        do {
            return try secrets.read(reference.key) == secret ? (.unchanged, host, nil) : (.keptVaultPassword, host, "the vault holds another password")
        } catch let error as SecretError where error.code != .locked {
            return (.keptVaultPassword, host, "the vault's password cannot be read here (\(error.message))")
        }
    }

    /// Whether an item with these attributes is worth reading the secret of for an import.
    public static func isKeyringImportCandidate(_ attributes: [String: String], requireProtocol: Bool) -> Bool {
        guard !isOwnKeyringItem(attributes), case .success = KeyringHostFields.parse(attributes, requireProtocol: requireProtocol) else { return false }
        return true
    }

    /// CredentialVault's own items (unlock keys, secret bodies): never imported.
    static func isOwnKeyringItem(_ attributes: [String: String]) -> Bool { attributes["xdg:schema"]?.hasPrefix("org.credvault.") ?? false }

    /// The item's label when it is a valid host label without spaces; else `user@host`; made unique.
    static func importLabel(_ itemLabel: String, _ fields: KeyringHostFields, taken: Set<String>) -> String {
        let usable = !itemLabel.contains(" ") && (try? ConfigValidation.label(itemLabel, kind: "host")) != nil
        let base = usable ? itemLabel : (fields.username.map { "\($0)@" } ?? "") + fields.hostname
        var label = base, suffix = 2
        while taken.contains(label.lowercased()) {
            label = "\(base)-\(suffix)"
            suffix += 1
        }
        return label
    }
}
