import CredentialVault

struct RemoteSetCommand: Command {
    static let spec = CommandSpec(
        path: ["remote", "set"],
        overview: "Bind the vault to a remote: a directory (a Syncthing or Nextcloud folder, a network mount) or an S3-compatible bucket (s3://BUCKET/PREFIX with --endpoint, --region, --path-style; credentials from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY or ~/.aws/credentials, never from the command line). The first device creates the remote and chooses the sync passphrase; other devices join with credctl init --join. A vault that already has records and binds to the remote of another vault joins that vault: it takes its id and key, and its records and secrets are merged in with the next sync. The remote only ever holds sealed objects.",
        usage: ["remote set DIR [--sync-passphrase-file FILE] [--merge]",
                "remote set s3://BUCKET/PREFIX [--endpoint URL] [--region REGION] [--path-style] [--allow-insecure-http] [--sync-passphrase-file FILE] [--merge]"],
        options: RemoteOptions.options + [SyncPassphrase.option,
                  .init(name: "--merge", value: nil, help: "Rebind after the remote was reset or moved: publish the keys again if needed, refetch everything, and send all of this device's records again.")],
        positionals: 1...1,
        examples: ["credctl remote set ~/Sync/credctl", "credctl remote set /mnt/share/vault --sync-passphrase-file ~/.config/credctl/sync",
                   "credctl remote set ~/Sync/credctl --merge",
                   "AWS_PROFILE=backup credctl remote set s3://team-vault/alice --endpoint http://nas.local:8333 --path-style"])

    let address: RemoteAddress
    let parsed: ParsedCommand

    init(_ parsed: ParsedCommand) throws {
        address = try RemoteOptions.address(parsed.positionals[0], parsed, command: Self.spec)
        self.parsed = parsed
    }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let passphrase = try SyncPassphrase.read(parsed, choosing: true)
        // Creating the remote publishes the vault key (wrapped), so it needs the vault unlocked.
        try context.unlock(vault)
        let ownVault = vault.vaultID
        let created = try vault.setRemote(address, syncPassphrase: passphrase, kdf: context.kdf, merge: parsed.flag("--merge"))
        let place = address.description
        if created {
            Output.out("Created the remote in \(place); other devices join with: credctl init --join \(parsed.positionals[0])\n")
        } else if vault.vaultID != ownVault {
            Output.out("Joined the vault \(vault.vaultID) in \(place); this vault's records and secrets go to it with the next sync.\n")
        } else {
            Output.out("Bound to the remote in \(place).\n")
        }
    }
}
