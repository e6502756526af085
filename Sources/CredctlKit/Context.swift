import Agent
import CredentialVault
import Glibc
import Launch

/// What every command may need: global options, the environment, and the vault.
struct Context {
    let globals: GlobalOptions
    let environment: [String: String]
    /// Every vault `openVault` opened, so that what the command left to send is known at its end.
    let opened = OpenedVaults()
    /// Where this vault's agent listens (`agentPlace`): resolving the vault's path takes a
    /// realpath of it and of the default vault's, which a read would otherwise do twice.
    let agentPlaceOnce = AgentPlaceOnce()
    /// Set when the process ends with the command: read-only vaults are then not closed.
    let keptUntilExit: VaultsKeptUntilExit?

    var json: Bool { globals.json }

    /// `--vault`, else `$CREDCTL_VAULT`, else the XDG default.
    var vaultPath: String {
        globals.vault ?? environment["CREDCTL_VAULT"].flatMap { $0.isEmpty ? nil : $0 } ?? VaultDirectory.defaultPath(environment: environment)
    }

    var passphraseFile: String? { globals.passphraseFile ?? environment["CREDCTL_PASSPHRASE_FILE"].flatMap { $0.isEmpty ? nil : $0 } }
    /// `--key-file FILE`, `--key-file` alone (the default key file), else `$CREDCTL_KEY_FILE`.
    var keyFile: String? {
        globals.keyFile ?? (globals.keyFileAtDefault ? defaultKeyFile : nil) ?? environment["CREDCTL_KEY_FILE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Where a key file is looked for when none is named.
    var defaultKeyFile: String { VaultDirectory.defaultKeyFilePath(environment: environment) }

    /// The variables that lead to the vault and its key. Children (`run`'s COMMAND, ssh) never
    /// inherit them: a child gets the secrets it was given, not the means to open the others.
    static let vaultVariables: Set<String> = ["CREDCTL_VAULT", "CREDCTL_KEY_FILE", "CREDCTL_PASSPHRASE_FILE"]

    /// The environment a child starts from: this process's, less `vaultVariables`.
    func childEnvironment() throws -> ChildEnvironment {
        let environment = try ChildEnvironment(environment.filter { !Self.vaultVariables.contains($0.key) })
        #if CREDVAULT_PLANTED_LEAK
        if let leaked = PlantedLeak.lastSecret { try environment.set("CREDVAULT_PLANTED_LEAK", text: leaked) }
        #endif
        return environment
    }

    /// Opens the vault without unlocking it. `toRead`: for a command that writes nothing to the
    /// vault, which may then be opened read-only (`Vault.openToRead`).
    func openVault(toRead: Bool = false) throws -> Vault {
        let vault = toRead ? try Vault.openToRead(at: vaultPath) : try Vault.open(at: vaultPath)
        // Only a command that reads (none starts a child) keeps its vault, and so its keys, past
        // its last use: `ssh` on a read-only mount must still let go of them before ssh starts.
        if toRead, vault.isReadOnly { keptUntilExit?.keep(vault) }
        // Only an agent is told of edits afterwards (`tellAgentOfEdits`). Without its socket (no
        // agent and no socket unit) there is no one to tell, and noting where the edits stand
        // costs a query in each track: a command that only reads would pay it for nothing.
        if access(agentPlace.socket, F_OK) == 0 { opened.note(vault) }
        return vault
    }

    /// Opens and unlocks the vault: key file, passphrase file, or — on a terminal — a prompt.
    func unlockedVault() throws -> Vault {
        let vault = try openVault()
        try unlock(vault)
        return vault
    }

    /// Key derivation for new passphrase-wrapped keys. Test suites make it cheap (stored with
    /// what it protects, and flagged by status).
    var kdf: KDFParameters { environment["CREDCTL_INSECURE_FAST_KDF"] == "1" ? .insecureForTesting() : .recommended() }

    /// Standard output is a terminal: secrets are refused there unless forced.
    var stdoutIsTerminal: Bool { Output.isTerminal(1) }
}
