import CredentialVault
import SSHAgentService
import SSHKeys

/// Keys `credctl ssh` opened itself (no unlocked agent runs), served to its ssh on a socket of
/// its own: the private keys stay in this process.
struct OpenedSSHKeys: SSHAgentKeys {
    struct Entry: Sendable {
        let key: SSHSigningKey
        let identity: Identity
    }

    let entries: [Entry]
    let confirmation: KeyUseConfirmation

    func identities() -> [SSHAgentIdentity] {
        entries.map { SSHAgentIdentity(keyBlob: $0.key.publicBlob, comment: $0.identity.label) }
    }

    func sign(keyBlob: [UInt8], data: [UInt8], flags: UInt32, forwarded: Bool) -> [UInt8]? {
        guard let entry = entries.first(where: { $0.key.publicBlob == keyBlob }),
              confirmation.allows(label: entry.identity.label, fingerprint: Identity.fingerprint(ofBlob: keyBlob), confirmRequired: entry.identity.confirm, forwarded: forwarded)
        else { return nil }
        return try? entry.key.sign(data, flags: flags)
    }
}
