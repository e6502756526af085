import CredentialVault
import Glibc

struct RemoteSetCommand: Command {
    static let path = ["remote", "set"]
    static let spec = CommandSpec(
        path: path,
        summary: "Bind the vault to a remote: a directory or an S3-compatible bucket.",
        overview: "Bind the vault to a remote: a directory (a Syncthing or Nextcloud folder, a network mount) or an S3-compatible bucket (s3://BUCKET/PREFIX with --endpoint, --region, --path-style; credentials from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY or ~/.aws/credentials, never from the command line). The first device creates the remote: the vault's roster starts with it, and a recovery key is shown once (or written to --recovery-key-file). Other devices join with credctl init --join, approved by a member or with the recovery key. A vault that already has records and binds to the remote of another vault joins that vault the same way: it takes its id and key, and its records and secrets are merged in with the next sync. The remote only ever holds sealed, signed objects; nothing on it is wrapped under a passphrase.",
        usage: ["remote set DIR [--recovery-key-file FILE] [--name NAME] [--confirm CODE] [--wait [SECONDS]] [--merge]",
                "remote set s3://BUCKET/PREFIX [--endpoint URL] [--region REGION] [--path-style] [--allow-insecure-http] [--recovery-key-file FILE] [--name NAME] [--merge]"],
        options: RemoteOptions.options + JoinOptions.options + [
                  .init(name: "--merge", value: nil, help: "Rebind after the remote was reset, moved or restored from a backup: create or join the vault there (or, on the same remote, accept it as it is now), refetch everything, and send all of this device's records again.")],
        positionals: 1...1,
        examples: ["credctl remote set ~/Sync/credctl", "credctl remote set /mnt/share/vault --recovery-key-file ~/recovery-key.txt",
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
        // Creating or joining a remote boxes keys to and from this device's own: the vault unlocked.
        try context.unlock(vault)
        let ownVault = vault.vaultID
        let place = address.description
        // The recovery key file is read to join a vault there, and is where a new remote's key goes.
        let joining = try Vault.remoteHoldsVault(address)
        if !joining, let file = parsed.value(RecoveryKeyFile.option.name), access(file, F_OK) == 0 {
            throw CLIError.input("\(file) exists; a new remote's recovery key goes to a new file, never over another.", hint: "Choose another --recovery-key-file.")
        }
        let join = try JoinOptions.credentials(parsed, joining: joining)
        let file = parsed.value(RecoveryKeyFile.option.name)
        let bind = { (join: JoinCredentials) in
            try vault.setRemote(self.address, join: join, merge: self.parsed.flag("--merge")) { try RecoveryKeyFile.deliver($0, to: file) }
        }
        let outcome = try JoinOptions.complete(parsed, try bind(join), retry: bind, join: join, place: parsed.positionals[0])
        switch outcome {
        case .created:
            Output.out("Created the remote in \(place); other devices join with: credctl init --join \(parsed.positionals[0])\n")
        case .joined where vault.vaultID != ownVault:
            Output.out("Joined the vault \(vault.vaultID) in \(place); this vault's records and secrets go to it with the next sync.\n")
        default:
            Output.out("Bound to the remote in \(place).\n")
        }
    }
}
