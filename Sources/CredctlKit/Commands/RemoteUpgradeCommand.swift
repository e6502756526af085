import CredentialVault
import Glibc

struct RemoteUpgradeCommand: Command {
    static let path = ["remote", "upgrade"]
    static let spec = CommandSpec(
        path: path,
        summary: "Convert a remote of the previous format to devices as principals.",
        overview: "Convert the remote this vault is bound to from the previous format (keys wrapped under a sync passphrase) to devices as principals: asks for the old sync passphrase once (or --sync-passphrase-file), makes this device the vault's first member with a new recovery key (shown once, or written to --recovery-key-file), new keys for everything, removes the old objects and sends all of this device's records again. The other devices then join again (credctl remote set LOCATION, approved here or with the recovery key). Secrets ever synced under the old format were open to offline guessing of the sync passphrase by anyone who kept a copy of the remote: change those that matter.",
        usage: ["remote upgrade [--sync-passphrase-file FILE] [--recovery-key-file FILE]"],
        options: [.init(name: "--sync-passphrase-file", value: "FILE", help: "Read the old sync passphrase from FILE."),
                  .init(name: "--recovery-key-file", value: "FILE", help: "Write the new recovery key to FILE (a new file, mode 0600) instead of showing it.")],
        positionals: 0...0,
        examples: ["credctl remote upgrade", "credctl remote upgrade --sync-passphrase-file old-sync.txt --recovery-key-file ~/recovery-key.txt"])

    let parsed: ParsedCommand

    init(_ parsed: ParsedCommand) throws { self.parsed = parsed }

    func run(_ context: Context) throws {
        let file = parsed.value("--recovery-key-file")
        if let file, access(file, F_OK) == 0 {
            throw CLIError.input("\(file) exists; a new recovery key goes to a new file, never over another.", hint: "Choose another --recovery-key-file.")
        }
        let passphrase: SecretBytes
        if let path = parsed.value("--sync-passphrase-file") {
            passphrase = try SecretInput.file(path, what: "sync passphrase")
        } else {
            guard Output.isTerminal(0) || Output.isTerminal(2) else {
                throw CLIError(message: "The old sync passphrase is needed and there is no terminal to ask for it.", hint: "Give --sync-passphrase-file FILE.",
                               status: ExitStatus.locked)
            }
            passphrase = try TerminalPrompt.ask("Old sync passphrase")
        }
        let vault = try context.unlockedVault()
        _ = try vault.upgradeRemote(syncPassphrase: passphrase) { try RecoveryKeyFile.deliver($0, to: file) }
        _ = try vault.sync()
        Output.out("The remote is upgraded; this device is its first member. The other devices join it again with: credctl remote set LOCATION\n")
        Output.err("credctl: note: secrets synced under the old format were open to offline guessing of the sync passphrase by anyone who kept a copy of the remote; change those that matter at their source.\n")
    }
}
