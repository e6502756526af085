import ConfigTrack
import CredentialVault
import Identifiers
import SSHAgentService
import SSHKeys

/// The keys one of the agent's ssh-agent sockets serves (docs/agent.md, "The ssh-agent"): the
/// vault's identities — all of them, or only those a `credctl ssh` named — while the vault is
/// unlocked, and none while it is locked.
struct AgentSSHKeys: SSHAgentKeys {
    let unlock: SharedUnlock
    /// Nil: every identity of the vault.
    let allowed: Set<UUID>?
    let confirmation: KeyUseConfirmation

    func identities() -> [SSHAgentIdentity] {
        unlock.with { unlock in
            guard unlock.isUnlocked else { return [] }
            return servedIdentities(unlock).compactMap { identity in
                identity.publicKeyBlob.map { SSHAgentIdentity(keyBlob: $0, comment: identity.label) }
            }
        }
    }

    func sign(keyBlob: [UInt8], data: [UInt8], flags: UInt32, forwarded: Bool) -> [UInt8]? {
        // Asked first, holding neither the vault nor any key: a confirmation waits for a person.
        guard let identity = unlock.with({ unlock in unlock.isUnlocked ? (try? unlock.vault.identity(publicKeyBlob: keyBlob)).flatMap(served) : nil }),
              confirmation.allows(label: identity.label, fingerprint: Identity.fingerprint(ofBlob: keyBlob), confirmRequired: identity.confirm, forwarded: forwarded),
              let stored = unlock.with({ unlock in stored(identity, keyBlob, unlock) })
        else { return nil }
        // A key's KDF (up to seconds for a key file that asks for many rounds) runs without the
        // vault's lock, so it never holds up the control socket or the lock deadlines.
        let key: SSHSigningKey
        switch stored {
        case .opened(let opened): key = opened
        case .sealed(let body, let passphrase):
            guard let opened = try? SSHSigningKey(privateKey: body, passphrase: passphrase, publicBlob: keyBlob) else { return nil }
            key = opened
        }
        // Signed under the vault's lock, and only while it is unlocked: a vault locked while the
        // user was asked, or while the key was opened, signs nothing.
        return unlock.with { unlock -> [UInt8]? in
            guard unlock.isUnlocked, let signature = try? key.sign(data, flags: flags) else { return nil }
            unlock.openedKeys[identity.id] = key
            // Another host's signatures do not keep this machine's vault unlocked.
            if !forwarded { unlock.used() }
            return signature
        }
    }

    private enum StoredKey {
        case opened(SSHSigningKey)
        case sealed(body: SecretBytes, passphrase: SecretBytes?)
    }

    /// The identity's key as opened before, or its file and passphrase to open it with.
    private func stored(_ identity: Identity, _ keyBlob: [UInt8], _ unlock: AgentUnlock) -> StoredKey? {
        guard unlock.isUnlocked else { return nil }
        if let opened = unlock.openedKeys[identity.id], opened.publicBlob == keyBlob { return .opened(opened) }
        guard let body = try? unlock.vault.readSecret(identity.privateKeyRef) else { return nil }
        return .sealed(body: body, passphrase: identity.passphraseRef.flatMap { try? unlock.vault.readSecret($0) })
    }

    private func servedIdentities(_ unlock: AgentUnlock) -> [Identity] {
        ((try? unlock.vault.identities()) ?? []).compactMap(served)
    }

    /// The identity, when this socket serves it: one an agent can sign with, and one it was
    /// made for.
    private func served(_ identity: Identity) -> Identity? {
        identity.agentCanSign && (allowed?.contains(identity.id) ?? true) ? identity : nil
    }
}
