import CredentialVault

/// Opens the secrets named by `cred://` addresses (or reference keys) for commands that hand
/// them to something else. Every address is opened before anything is used, so one that has
/// not synced (exit 75), is locked (77) or does not exist stops the command with nothing done.
/// The vault is unlocked only when there is something to open.
enum SecretAddresses {
    static let scheme = "cred://"

    static func open(_ addresses: [String], context: Context) throws -> [String: SecretBytes] {
        guard !addresses.isEmpty else { return [:] }
        let vault = try context.openVault()
        var opened: [String: SecretBytes] = [:]
        for address in addresses where opened[address] == nil {
            let reference = try vault.reference(for: address)
            opened[address] = try context.unlockingIfNeeded(vault) { try vault.readSecret(reference) }
        }
        return opened
    }
}
