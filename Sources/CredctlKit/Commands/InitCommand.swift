import CredentialVault
import Keyring

struct InitCommand: Command {
    static let spec = CommandSpec(
        path: ["init"],
        overview: "Create a new vault. It unlocks with a passphrase (asked on the terminal, or read with --passphrase-file) or with a key file (--key-file; created with mode 0600 if it does not exist). With --join, the new vault joins an existing remote: it adopts the vault's keys (unwrapped with the sync passphrase) and syncs once. With --keyring, it also unlocks through the desktop keyring on this device, so a desktop session needs no prompt; the passphrase or key file stays as the fallback.",
        usage: ["init [--keyring] [--passphrase-file FILE | --key-file FILE]", "init --join DIR [--sync-passphrase-file FILE] [--keyring] [--passphrase-file FILE | --key-file FILE]"],
        options: [.init(name: "--join", value: "DIR", help: "Join the vault whose remote is the directory DIR."), SyncPassphrase.option,
                  .init(name: "--keyring", value: nil, help: "Also unlock through the desktop keyring on this device (the passphrase or key file stays as the fallback).")],
        positionals: 0...0,
        examples: ["credctl init", "credctl init --vault /srv/vault --key-file /etc/credctl/key",
                   "credctl init --join ~/Sync/credctl --sync-passphrase-file ~/.config/credctl/sync --key-file ~/.config/credctl/key"])

    let parsed: ParsedCommand

    init(_ parsed: ParsedCommand) throws {
        if parsed.value(SyncPassphrase.option.name) != nil && parsed.value("--join") == nil {
            throw UsageError("--sync-passphrase-file goes with --join (or with remote set).", command: Self.spec)
        }
        self.parsed = parsed
    }

    func run(_ context: Context) throws {
        let syncPassphrase = parsed.value("--join") != nil ? try SyncPassphrase.read(parsed, choosing: false) : nil
        // The keyring is checked before anything is created, so a refusal leaves nothing behind.
        if parsed.flag("--keyring"), case let status = Keyring.status(), status != .available {
            throw CLIError(message: "The desktop keyring is \(status.name): \(status.reason ?? "")", hint: "Create the vault without --keyring; add it later with: credctl unlock-method set keyring",
                           status: ExitStatus.unavailable)
        }
        let key = try context.unlockKey(confirmNew: true)
        // Test suites set this to make Argon2id cheap; the parameters are stored with the vault,
        // and status flags them, so a vault made this way is recognisable.
        let kdf = context.kdf
        if case .passphrase = key, kdf.isWeak {
            Output.err("credctl: warning: CREDCTL_INSECURE_FAST_KDF=1: this vault's passphrase is stretched with test-suite parameters and is easy to guess.\n")
        }
        let vault: Vault
        if let remote = parsed.value("--join"), let syncPassphrase {
            vault = try Vault.join(at: context.vaultPath, remoteDirectory: remote, syncPassphrase: syncPassphrase, key: key, kdf: kdf)
            Output.out("Joined the vault in \(remote) as device \(vault.deviceID) (\(vault.directory.path)).\n")
            let progress = SyncProgress(context: context, verb: "first sync", showsSent: false)
            let outcomes = try vault.sync { progress.update($0, received: $1, sent: $2) }
            progress.finish()
            for outcome in outcomes {
                Output.out("\(outcome.zone.rawValue): \(outcome.state.rawValue)" + (outcome.reason.map { ": \($0)" } ?? " (received \(outcome.applied))") + "\n")
            }
        } else {
            vault = try Vault.create(at: context.vaultPath, key: key, kdf: kdf)
            Output.out("Created vault \(vault.directory.path) (device \(vault.deviceID)); it unlocks with \(Self.describe(key)).\n")
        }
        if parsed.flag("--keyring") {
            try vault.enableKeyringUnlock(kdf: kdf)
            Output.out("It also unlocks through the desktop keyring on this device.\n")
        }
        if case .keyFile = key {
            Output.out("Keep a copy of the key file somewhere safe: without it the vault cannot be opened.\n")
        }
    }

    private static func describe(_ key: UnlockKey) -> String {
        if case .keyFile(let path) = key { return "the key file \(path)" }
        return "its passphrase"
    }
}
