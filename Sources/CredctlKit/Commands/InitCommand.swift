import CredentialVault

struct InitCommand: Command {
    static let spec = CommandSpec(
        path: ["init"],
        overview: "Create a new vault. It unlocks with a passphrase (asked on the terminal, or read with --passphrase-file) or with a key file (--key-file; created with mode 0600 if it does not exist).",
        usage: ["init [--passphrase-file FILE | --key-file FILE]"],
        options: [],
        positionals: 0...0,
        examples: ["credctl init", "credctl init --vault /srv/vault --key-file /etc/credctl/key", "credctl init --passphrase-file ~/.config/credctl/passphrase"])

    init(_ parsed: ParsedCommand) throws {}

    func run(_ context: Context) throws {
        let key = try context.unlockKey(confirmNew: true)
        // Test suites set this to make Argon2id cheap; the parameters are stored with the vault,
        // and status flags them, so a vault made this way is recognisable.
        let kdf: KDFParameters = context.environment["CREDCTL_INSECURE_FAST_KDF"] == "1" ? .insecureForTesting() : .recommended()
        if case .passphrase = key, kdf.isWeak {
            Output.err("credctl: warning: CREDCTL_INSECURE_FAST_KDF=1: this vault's passphrase is stretched with test-suite parameters and is easy to guess.\n")
        }
        let vault = try Vault.create(at: context.vaultPath, key: key, kdf: kdf)
        if case .keyFile(let path) = key {
            Output.out("Created vault \(vault.directory.path) (device \(vault.deviceID)); it unlocks with the key file \(path).\n")
            Output.out("Keep a copy of the key file somewhere safe: without it the vault cannot be opened.\n")
        } else {
            Output.out("Created vault \(vault.directory.path) (device \(vault.deviceID)); it unlocks with its passphrase.\n")
        }
    }
}
