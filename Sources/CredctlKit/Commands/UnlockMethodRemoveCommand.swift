import CredentialVault

struct UnlockMethodRemoveCommand: Command {
    static let path = ["unlock-method", "remove"]
    static let spec = CommandSpec(
        path: path,
        summary: "Remove a way to unlock the vault on this device.",
        overview: "Remove a way to unlock the vault on this device (its key slot; for keyring, also the key kept in the desktop keyring). The last method is never removed. Unlocks the vault once first.",
        usage: ["unlock-method remove passphrase|keyfile|keyring"],
        options: [],
        positionals: 1...1,
        examples: ["credctl unlock-method remove passphrase"],
        argument: .words(["passphrase", "keyfile", "keyring"]))

    let method: String

    init(_ parsed: ParsedCommand) throws { method = parsed.positionals[0] }

    func run(_ context: Context) throws {
        let vault = try context.unlockedVault()
        try vault.removeUnlockMethod(method)
        Output.out("The vault no longer unlocks with its \(method) on this device (it unlocks with: \(vault.unlockMethods.joined(separator: ", "))).\n")
    }
}
