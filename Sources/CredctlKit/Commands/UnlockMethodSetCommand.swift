import CredentialVault

struct UnlockMethodSetCommand: Command {
    static let path = ["unlock-method", "set"]
    static let spec = CommandSpec(
        path: path,
        summary: "Also unlock the vault through the desktop keyring on this device.",
        overview: "Add a way to unlock the vault on this device. keyring keeps a random key in the desktop keyring (GNOME Keyring, KeePassXC, any Secret Service), so a desktop session opens the vault without a prompt; the vault's other methods keep working and are used whenever the keyring is unavailable or locked. Unlocks the vault once with its current method.",
        usage: ["unlock-method set keyring"],
        options: [],
        positionals: 1...1,
        examples: ["credctl unlock-method set keyring"],
        argument: .words(["keyring"]))

    init(_ parsed: ParsedCommand) throws {
        guard parsed.positionals[0] == "keyring" else {
            throw UsageError("'\(parsed.positionals[0])' is not an unlock method this command adds; the one it adds is keyring.", command: Self.spec)
        }
    }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        try context.unlock(vault)
        try vault.enableKeyringUnlock(kdf: context.kdf)
        Output.out("The vault now also unlocks through the desktop keyring on this device; its other unlock methods still work.\n")
    }
}
