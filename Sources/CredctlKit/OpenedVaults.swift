import CredentialVault
import Synchronization

/// The vaults one command opened, each with where its unsent edits stood then: afterwards, what
/// the command left to send (docs/agent.md, "Background sync" — the agent is told).
final class OpenedVaults: Sendable {
    /// The vault is held weakly: it, and the keys it may hold, go when the command is done with
    /// it (before `ssh` starts, say), not when the command ends.
    private struct Entry {
        weak var vault: Vault?
        let path: String
        let mark: LocalEditMark
        /// The databases' and their write-ahead logs' files as they were: a vault let go of is
        /// opened again only when one of them changed (no command that only reads pays for it).
        let files: [FileStamp]
    }

    private let opened = Mutex<[Entry]>([])

    /// Notes `vault` as just opened, before the command touches it.
    func note(_ vault: Vault) {
        let entry = Entry(vault: vault, path: vault.directory.path, mark: LocalEditMark(of: vault), files: Self.stamps(vault.directory))
        opened.withLock { $0.append(entry) }
    }

    /// Whether no vault was noted.
    var isEmpty: Bool { opened.withLock { $0.isEmpty } }

    /// Whether any of them now holds an edit, made since it was opened, that waits to be sent.
    var haveNewEdits: Bool {
        opened.withLock { $0 }.contains { entry in
            // One the command let go of is opened again to look, if its files changed at all.
            if entry.vault == nil, Self.stamps(VaultDirectory(path: entry.path)) == entry.files { return false }
            guard let vault = entry.vault ?? (try? Vault.open(at: entry.path)) else { return false }
            return LocalEditMark(of: vault).isPast(entry.mark)
        }
    }

    private static func stamps(_ directory: VaultDirectory) -> [FileStamp] {
        [directory.configPath, directory.configPath + "-wal", directory.secretsPath, directory.secretsPath + "-wal"].map(FileStamp.init)
    }
}
