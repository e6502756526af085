import Agent
import CredentialVault
import Glibc

/// The agent of this command's vault (docs/agent.md), when one answers.
extension Context {
    var agentPlace: AgentPlace { agentPlaceOnce.value { AgentPlace(vaultPath: vaultPath, environment: environment) } }

    /// A connection to an agent that serves `vault` (the same vault id) and holds it unlocked;
    /// nil otherwise.
    func unlockedAgent(for vault: Vault) -> AgentClient? {
        guard let client = AgentClient(place: agentPlace), let status = try? client.status(), status.unlocked, status.vaultID == vault.vaultID else { return nil }
        return client
    }

    /// Tells a running agent of this vault that the command left edits to send, so it syncs
    /// soon instead of at its next scheduled sync. Asked only then (a command that synced sent
    /// them), quickly, and never failing the command.
    func tellAgentOfEdits() {
        // Without an agent's socket there is no one to tell, and looking for edits can mean
        // opening the vault again (a command that let go of it): `read` would pay a second open.
        guard !opened.isEmpty, access(agentPlace.socket, F_OK) == 0, opened.haveNewEdits else { return }
        AgentClient.tellChanged(place: agentPlace)
    }

    /// Makes `vault` able to write secrets: through an unlocked agent of the same vault (which
    /// seals them), else unlocked here as always.
    func unlockForWriting(_ vault: Vault) throws {
        if !vault.isUnlocked, let agent = unlockedAgent(for: vault) {
            vault.secretSource = agent
            return
        }
        try unlock(vault)
    }

    /// The ways to unlock this vault, in the order `unlock` tries them, as material to hand the
    /// agent: what was given; else the desktop keyring, the default key file, a passphrase prompt.
    func unlockMaterials(_ vault: Vault) throws -> [(kind: String, material: SecretBytes)] {
        if keyGiven {
            switch try unlockKey(confirmNew: false) {
            case .passphrase(let passphrase): return [("passphrase", passphrase)]
            case .keyFile(let path): return [("keyfile", try Vault.readKeyFile(at: path))]
            case .keyFileContents(let contents): return [("keyfile", contents)]
            }
        }
        var materials: [(kind: String, material: SecretBytes)] = []
        if vault.unlocksWithKeyring { materials.append(("keyring", try SecretBytes(zeroedCount: 0))) }
        if vault.unlockMethods.contains("keyfile"), let contents = try? Vault.readKeyFile(at: defaultKeyFile) { materials.append(("keyfile", contents)) }
        return materials
    }
}
