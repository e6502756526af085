import CredentialVault
import Glibc
import SystemErrors

/// How a command gets the vault's key: what was given, the desktop keyring, the default key
/// file, or a prompt — and, when none of those can be had, which methods the vault has.
extension Context {
    /// A key file or passphrase file was named (option or environment).
    var keyGiven: Bool { globals.keyFile != nil || globals.keyFileAtDefault || globals.passphraseFile != nil || keyFile != nil || passphraseFile != nil }

    /// Unlocks `vault` with what was given. With nothing given: through the desktop keyring when
    /// the vault has it on this device, then the default key file when the vault has a key-file
    /// method and that file exists, then a passphrase prompt when it has a passphrase and there
    /// is a terminal. A way that fails is said on standard error, with the reason, before the next.
    func unlock(_ vault: Vault) throws {
        if keyGiven { return try vault.unlock(try unlockKey(confirmNew: false)) }
        // The keyring and the prompt can wait on a person: nothing holds a snapshot meanwhile.
        vault.endReadSnapshots()
        let methods = vault.unlockMethods
        if vault.unlocksWithKeyring {
            do {
                return try vault.unlockWithKeyring()
            } catch {
                Output.err("credctl: \(error.message) Using the vault's other unlock method.\n")
            }
        }
        let fallsBackToPrompt = methods.contains("passphrase") && promptPossible
        if methods.contains("keyfile"), access(defaultKeyFile, F_OK) == 0 {
            let path = defaultKeyFile
            do {
                return try vault.unlock(.keyFile(path: path))
            } catch {
                guard fallsBackToPrompt else { throw error }
                Output.err("credctl: \(path): \(VaultError.from(error).message) Asking for the passphrase instead.\n")
            }
        }
        guard fallsBackToPrompt else { throw noKeyError(methods) }
        try vault.unlock(.passphrase(try TerminalPrompt.ask("Vault passphrase")))
    }

    /// Runs `body` on the locked vault first, so that an answer that needs no key (not found,
    /// not yet synced, deleted, no credential) comes without asking for one; unlocks and runs
    /// it again only if a body actually has to be opened.
    func unlockingIfNeeded<T>(_ vault: Vault, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as VaultError where error.code == .locked {
            // An agent that holds the vault unlocked hands out the bodies; nothing is asked.
            if vault.secretSource == nil, let agent = unlockedAgent(for: vault) {
                vault.secretSource = agent
                do { return try body() } catch let again as VaultError where again.code == .locked {}
                vault.secretSource = nil
            }
            try unlock(vault)
            return try body()
        }
    }

    /// The unlock key from options, environment or terminal. `confirmNew` asks twice (init).
    /// An option beats any environment variable; two options, or two variables, are ambiguous.
    func unlockKey(confirmNew: Bool) throws -> UnlockKey {
        if (globals.keyFile != nil || globals.keyFileAtDefault) && globals.passphraseFile != nil {
            throw UsageError("--key-file and --passphrase-file cannot be used together.")
        }
        if globals.keyFile != nil || globals.keyFileAtDefault, let keyFile { return .keyFile(path: keyFile) }
        if let passphraseFile = globals.passphraseFile { return .passphrase(try SecretInput.file(passphraseFile, what: "passphrase")) }
        if keyFile != nil && passphraseFile != nil {
            throw UsageError("Both CREDCTL_KEY_FILE and CREDCTL_PASSPHRASE_FILE are set; unset one or give --key-file or --passphrase-file.")
        }
        if let keyFile { return .keyFile(path: keyFile) }
        if let passphraseFile { return .passphrase(try SecretInput.file(passphraseFile, what: "passphrase")) }
        guard promptPossible else {
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

    /// Makes the default key file's directory (mode 0700, with missing parents) when a new key
    /// file is to be created there; a path the user named is taken as it is.
    func prepareKeyFileDirectory(for key: UnlockKey) throws {
        guard case .keyFile(let path) = key, path == defaultKeyFile, access(path, F_OK) != 0 else { return }
        var partial = ""
        for component in path.split(separator: "/").dropLast() {
            partial += "/" + component
            if mkdir(partial, 0o700) != 0 && errno != EEXIST {
                throw CLIError(message: "Unable to create the directory \(partial) for the key file: \(SystemError.describe(errno)).", hint: nil, status: ExitStatus.failure)
            }
        }
    }

    var promptPossible: Bool { Output.isTerminal(0) || Output.isTerminal(2) }

    /// Why nothing could unlock the vault, naming the methods it has and how to give each.
    func noKeyError(_ methods: [String]) -> VaultError {
        let names = methods.map { $0 == "keyfile" ? "a key file" : $0 == "keyring" ? "the desktop keyring" : "a passphrase" }
        let list = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.first ?? "nothing"
        var ways: [String] = []
        if methods.contains("keyfile") {
            ways.append("give --key-file FILE, set CREDCTL_KEY_FILE, or keep the key file at \(defaultKeyFile)")
        }
        if methods.contains("passphrase") { ways.append("give --passphrase-file FILE (or CREDCTL_PASSPHRASE_FILE), or run on a terminal to be asked") }
        if methods.contains("keyring") { ways.append("unlock the desktop keyring in a desktop session") }
        let why = methods.contains("keyfile") && access(defaultKeyFile, F_OK) != 0 ? " and no key file was given (none at \(defaultKeyFile))" : " and none was given"
        return VaultError(.locked, "The vault is locked: it unlocks with \(list) on this device\(why).",
                          hint: ways.joined(separator: "; ").prefix(1).uppercased() + ways.joined(separator: "; ").dropFirst() + ".")
    }
}
