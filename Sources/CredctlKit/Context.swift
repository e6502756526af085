import CredentialVault
import Launch

/// What every command may need: global options, the environment, and the vault.
struct Context {
    let globals: GlobalOptions
    let environment: [String: String]

    var json: Bool { globals.json }

    /// `--vault`, else `$CREDCTL_VAULT`, else the XDG default.
    var vaultPath: String {
        globals.vault ?? environment["CREDCTL_VAULT"].flatMap { $0.isEmpty ? nil : $0 } ?? VaultDirectory.defaultPath(environment: environment)
    }

    var passphraseFile: String? { globals.passphraseFile ?? environment["CREDCTL_PASSPHRASE_FILE"].flatMap { $0.isEmpty ? nil : $0 } }
    var keyFile: String? { globals.keyFile ?? environment["CREDCTL_KEY_FILE"].flatMap { $0.isEmpty ? nil : $0 } }

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

    /// Opens the vault without unlocking it.
    func openVault() throws -> Vault { try Vault.open(at: vaultPath) }

    /// Opens and unlocks the vault: key file, passphrase file, or — on a terminal — a prompt.
    func unlockedVault() throws -> Vault {
        let vault = try openVault()
        try unlock(vault)
        return vault
    }

    /// Unlocks `vault`: through the desktop keyring first when the vault has it on this device
    /// and no key was given; otherwise, or when the keyring cannot be used (said on standard
    /// error, with the reason), with the key file, the passphrase file or a prompt.
    func unlock(_ vault: Vault) throws {
        let keyGiven = globals.keyFile != nil || globals.passphraseFile != nil || keyFile != nil || passphraseFile != nil
        if !keyGiven && vault.unlocksWithKeyring {
            do {
                try vault.unlockWithKeyring()
                return
            } catch {
                Output.err("credctl: \(error.message) Using the vault's other unlock method.\n")
            }
        }
        try vault.unlock(try unlockKey(confirmNew: false))
    }

    /// Runs `body` on the locked vault first, so that an answer that needs no key (not found,
    /// not yet synced, deleted, no credential) comes without asking for one; unlocks and runs
    /// it again only if a body actually has to be opened.
    func unlockingIfNeeded<T>(_ vault: Vault, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as VaultError where error.code == .locked {
            try unlock(vault)
            return try body()
        }
    }

    /// The unlock key from options, environment or terminal. `confirmNew` asks twice (init).
    /// An option beats any environment variable; two options, or two variables, are ambiguous.
    func unlockKey(confirmNew: Bool) throws -> UnlockKey {
        if globals.keyFile != nil && globals.passphraseFile != nil {
            throw UsageError("--key-file and --passphrase-file cannot be used together.")
        }
        if let keyFile = globals.keyFile { return .keyFile(path: keyFile) }
        if let passphraseFile = globals.passphraseFile { return .passphrase(try SecretInput.file(passphraseFile, what: "passphrase")) }
        if keyFile != nil && passphraseFile != nil {
            throw UsageError("Both CREDCTL_KEY_FILE and CREDCTL_PASSPHRASE_FILE are set; unset one or give --key-file or --passphrase-file.")
        }
        if let keyFile { return .keyFile(path: keyFile) }
        if let passphraseFile { return .passphrase(try SecretInput.file(passphraseFile, what: "passphrase")) }
        guard Output.isTerminal(0) || Output.isTerminal(2) else {
            throw VaultError(.locked, "The vault is locked and there is no terminal to ask for its passphrase.",
                             hint: "Give --passphrase-file FILE or --key-file FILE (or set CREDCTL_PASSPHRASE_FILE / CREDCTL_KEY_FILE).")
        }
        let passphrase = try TerminalPrompt.ask(confirmNew ? "New vault passphrase" : "Vault passphrase")
        if confirmNew {
            guard try TerminalPrompt.ask("Repeat the passphrase") == passphrase else {
                throw CLIError.input("The two passphrases differ.")
            }
        }
        return .passphrase(passphrase)
    }

    /// Key derivation for new passphrase-wrapped keys. Test suites make it cheap (stored with
    /// what it protects, and flagged by status).
    var kdf: KDFParameters { environment["CREDCTL_INSECURE_FAST_KDF"] == "1" ? .insecureForTesting() : .recommended() }

    /// Standard output is a terminal: secrets are refused there unless forced.
    var stdoutIsTerminal: Bool { Output.isTerminal(1) }
}
