import CredentialVault

struct PassphraseChangeCommand: Command {
    static let path = ["passphrase", "change"]
    static let spec = CommandSpec(
        path: path,
        summary: "Change the vault's passphrase on this device.",
        overview: "Change the vault's passphrase on this device: unlocks with the current one (or another method), then the new one (asked twice, or --new-passphrase-file) replaces it in one transaction. The other devices and the remote are not touched; each device has its own.",
        usage: ["passphrase change [--new-passphrase-file FILE]"],
        options: [NewPassphrase.option],
        positionals: 0...0,
        examples: ["credctl passphrase change", "credctl --passphrase-file old.txt passphrase change --new-passphrase-file new.txt"])

    let parsed: ParsedCommand

    init(_ parsed: ParsedCommand) throws { self.parsed = parsed }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        guard vault.unlockMethods.contains("passphrase") else {
            throw CLIError.input("This vault does not unlock with a passphrase on this device.", hint: "Add one with: credctl unlock-method add passphrase")
        }
        try context.unlock(vault)
        try vault.addUnlockMethod(.passphrase(try NewPassphrase.read(parsed)), kdf: context.kdf)
        Output.out("The passphrase is changed on this device; the old one no longer unlocks the vault.\n")
    }
}
