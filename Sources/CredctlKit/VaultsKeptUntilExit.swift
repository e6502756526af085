import CredentialVault
import Synchronization

/// The read-only vaults a command opened in a process that ends with the command (the credctl
/// program, never a test calling `CLI.main`). They are never closed: SQLite's connections read
/// only, so they have nothing to write back, and the kernel releases their files and locks at
/// exit. Closing them would free the two parsed schemas piece by piece, which costs a `read`
/// more instructions than reading them did (docs/startup.md). Their keys are wiped when the
/// command is done all the same.
final class VaultsKeptUntilExit: Sendable {
    private let vaults = Mutex<[Vault]>([])

    /// Keeps `vault`, opened read-only, past the command.
    func keep(_ vault: Vault) {
        vaults.withLock { $0.append(vault) }
    }

    /// The command is done: every kept vault forgets its keys (wiping them) and stays allocated
    /// until the process exits.
    func commandEnded() {
        let kept = vaults.withLock { kept in
            defer { kept.removeAll() }
            return kept
        }
        for vault in kept {
            vault.lock()
            _ = Unmanaged.passRetained(vault)
        }
    }
}
