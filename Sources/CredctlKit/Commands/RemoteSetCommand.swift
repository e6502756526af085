import CredentialVault

struct RemoteSetCommand: Command {
    static let spec = CommandSpec(
        path: ["remote", "set"],
        overview: "Bind the vault to a remote directory (a Syncthing or Nextcloud folder, a network mount). The first device creates the remote and chooses the sync passphrase; other devices join with credctl init --join. A vault that already has records and binds to the remote of another vault joins that vault: it takes its id and key, and its records and secrets are merged in with the next sync. The remote only ever holds sealed objects.",
        usage: ["remote set DIR [--sync-passphrase-file FILE] [--merge]"],
        options: [SyncPassphrase.option,
                  .init(name: "--merge", value: nil, help: "Rebind after the remote was reset or moved: publish the keys again if needed, refetch everything, and send all of this device's records again.")],
        positionals: 1...1,
        examples: ["credctl remote set ~/Sync/credctl", "credctl remote set /mnt/share/vault --sync-passphrase-file ~/.config/credctl/sync",
                   "credctl remote set ~/Sync/credctl --merge"])

    let path: String
    let parsed: ParsedCommand

    init(_ parsed: ParsedCommand) throws {
        path = parsed.positionals[0]
        self.parsed = parsed
    }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let passphrase = try SyncPassphrase.read(parsed, choosing: true)
        // Creating the remote publishes the vault key (wrapped), so it needs the vault unlocked.
        try context.unlock(vault)
        let ownVault = vault.vaultID
        let created = try vault.setRemote(directory: path, syncPassphrase: passphrase, kdf: context.kdf, merge: parsed.flag("--merge"))
        if created {
            Output.out("Created the remote in \(path); other devices join with: credctl init --join \(path)\n")
        } else if vault.vaultID != ownVault {
            Output.out("Joined the vault \(vault.vaultID) in \(path); this vault's records and secrets go to it with the next sync.\n")
        } else {
            Output.out("Bound to the remote in \(path).\n")
        }
    }
}
