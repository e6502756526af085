import CredentialVault
import Keyring

struct InitCommand: Command {
    static let path = ["init"]
    static let spec = CommandSpec(
        path: path,
        summary: "Create a new vault, or join the vault on a remote (--join).",
        overview: "Create a new vault. It unlocks with a passphrase (asked on the terminal, or read with --passphrase-file) or with a key file (--key-file; created with mode 0600 if it does not exist). With --join, the new vault joins the vault on an existing remote: with --recovery-key-file it joins at once; otherwise it asks to be approved, prints a verification code and exits 75 until a device of the vault runs credctl device approve CODE (the same code) and the confirmation code that prints is given here (--confirm CODE, or typed on the terminal); run the same command again, or wait with --wait. Once joined it syncs once. With --key-file and no FILE, the key file is $XDG_CONFIG_HOME/credctl/key (~/.config/credctl/key), where every command finds it without being told. With --keyring, it also unlocks through the desktop keyring on this device, so a desktop session needs no prompt; the passphrase or key file stays as the fallback. With --secret-backend keyring, the sealed secret bodies are kept as items of the desktop keyring instead of in secrets.sqlite (which keeps their metadata, versions and deletion markers); that vault then needs the desktop keyring to read or write a secret. The backend is chosen once, here.",
        usage: ["init [--device-name NAME] [--keyring] [--secret-backend sqlite|keyring] [--passphrase-file FILE | --key-file [FILE]]",
                "init --join DIR|s3://BUCKET/PREFIX [--endpoint URL] [--region REGION] [--path-style] [--allow-insecure-http] [--recovery-key-file FILE | --confirm CODE] [--wait [SECONDS]] [--device-name NAME] [--keyring] [--secret-backend sqlite|keyring] [--passphrase-file FILE | --key-file FILE]"],
        options: [.init(name: "--join", value: "REMOTE", help: "Join the vault whose remote is REMOTE: a directory, or s3://BUCKET/PREFIX with the S3 options.")] + JoinOptions.options + RemoteOptions.options + [
                  .init(name: "--device-name", value: "NAME", help: "The name this device goes by on every device (default: the host name and the start of its id, as laptop-3f0c); change it later with credctl device rename."),
                  .init(name: "--keyring", value: nil, help: "Also unlock through the desktop keyring on this device (the passphrase or key file stays as the fallback)."),
                  .init(name: "--secret-backend", value: "NAME", help: "Where sealed secret bodies are kept: sqlite (the default; in secrets.sqlite) or keyring (items of the desktop keyring).",
                        completion: .words(["sqlite", "keyring"]))],
        positionals: 0...0,
        examples: ["credctl init", "credctl init --key-file", "credctl init --vault /srv/vault --key-file /etc/credctl/key",
                   "credctl init --keyring --secret-backend keyring",
                   "credctl init --join ~/Sync/credctl --key-file ~/.config/credctl/key --wait",
                   "credctl init --join ~/Sync/credctl --recovery-key-file ~/recovery-key.txt"])

    let parsed: ParsedCommand
    let backend: SecretBackend
    /// The remote to join, checked before anything is read or created.
    let remote: RemoteAddress?

    init(_ parsed: ParsedCommand) throws {
        let name = parsed.value("--secret-backend") ?? SecretBackend.sqlite.rawValue
        guard let backend = SecretBackend(rawValue: name) else {
            throw UsageError("--secret-backend takes sqlite or keyring, not '\(name)'.", command: Self.spec)
        }
        self.backend = backend
        if parsed.value("--join") == nil, let stray = JoinOptions.options.first(where: { parsed.value($0.name) != nil || parsed.flag($0.name) }) {
            throw UsageError("\(stray.name) goes with --join (or with remote set).", command: Self.spec)
        }
        if parsed.value("--join") == nil && (parsed.value("--endpoint") != nil || parsed.value("--region") != nil || parsed.flag("--path-style")
                                             || parsed.flag("--allow-insecure-http")) {
            throw UsageError("--endpoint, --region, --path-style and --allow-insecure-http go with --join s3://BUCKET/PREFIX (or with remote set).", command: Self.spec)
        }
        remote = try parsed.value("--join").map { try RemoteOptions.address($0, parsed, command: Self.spec) }
        if let name = parsed.value("--device-name") {
            if let other = parsed.value("--name"), other != name { throw UsageError("--device-name and --name name this device twice; give one.", command: Self.spec) }
            do { try ConfigValidation.label(name, kind: "device") } catch { throw CLIError.input(VaultError.from(error).message) }
        }
        self.parsed = parsed
    }

    func run(_ context: Context) throws {
        // The remote is probed before anything is read or made: refused credentials, a missing
        // bucket or no vault there are said first.
        if let address = remote, try !Vault.remoteHoldsVault(address) {
            throw CLIError(message: "There is no vault to join at \(address.description) (no vault.json).",
                           hint: "Create it from the first device with credctl remote set \(parsed.value("--join") ?? "")", status: ExitStatus.notFound)
        }
        var join = try JoinOptions.credentials(parsed, joining: true)
        if let name = parsed.value("--device-name") { join.name = name }
        // The keyring is checked before anything is created, so a refusal leaves nothing behind.
        if parsed.flag("--keyring") || backend == .keyring, case let status = Keyring.status(), status != .available {
            let hint = parsed.flag("--keyring") ? "Create the vault without --keyring; add it later with: credctl unlock-method set keyring"
                : "Create the vault without --secret-backend keyring: its secrets are then kept in secrets.sqlite."
            throw CLIError(message: "The desktop keyring is \(status.name): \(status.reason ?? "")", hint: hint, status: ExitStatus.unavailable)
        }
        let key = try context.unlockKey(confirmNew: true)
        try context.prepareKeyFileDirectory(for: key)
        // Test suites set this to make Argon2id cheap; the parameters are stored with the vault,
        // and status flags them, so a vault made this way is recognisable.
        let kdf = context.kdf
        if case .passphrase = key, kdf.isWeak {
            Output.err("credctl: warning: CREDCTL_INSECURE_FAST_KDF=1: this vault's passphrase is stretched with test-suite parameters and is easy to guess.\n")
        }
        let vault: Vault
        if let remote = parsed.value("--join"), let address = self.remote {
            let started = try Vault.join(at: context.vaultPath, remote: address, join: join, key: key, kdf: kdf, backend: backend)
            vault = started.vault
            _ = try JoinOptions.complete(parsed, started.outcome, retry: { try vault.setRemote(address, join: $0) }, join: join, place: remote)
            Output.out("Joined the vault in \(remote) as device \(vault.deviceID) (\(vault.directory.path)).\n")
            let progress = SyncProgress(context: context, verb: "first sync", showsSent: false)
            let outcomes = try vault.sync { progress.update($0, received: $1, sent: $2) }
            progress.finish()
            for outcome in outcomes {
                Output.out("\(outcome.zone.rawValue): \(outcome.state.rawValue)" + (outcome.reason.map { ": \($0)" } ?? " (received \(outcome.applied))") + "\n")
            }
        } else {
            vault = try Vault.create(at: context.vaultPath, key: key, kdf: kdf, backend: backend)
            if let name = parsed.value("--device-name") { try vault.chooseDeviceName(name) }
            Output.out("Created vault \(vault.directory.path) (device \(vault.deviceID)); it unlocks with \(Self.describe(key)).\n")
        }
        if parsed.flag("--keyring") {
            try vault.enableKeyringUnlock(kdf: kdf)
            Output.out("It also unlocks through the desktop keyring on this device.\n")
        }
        if backend == .keyring {
            Output.out("Its secrets are kept, sealed, in the desktop keyring on this device.\n")
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
