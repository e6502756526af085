import CredentialVault

struct VaultRotateCommand: Command {
    static let path = ["vault", "rotate"]
    static let spec = CommandSpec(
        path: path,
        summary: "Start a new epoch: new vault and transport keys for the same devices.",
        overview: "Start a new epoch for the same devices: new vault and transport keys, boxed to every member and the recovery key, which also carry the previous ones (history stays readable). This device's secrets are sealed in the new epoch, then it syncs; every other device moves to it when it next syncs and unlocks.",
        usage: ["vault rotate"],
        options: [],
        positionals: 0...0,
        examples: ["credctl vault rotate"])

    init(_ parsed: ParsedCommand) throws {}

    func run(_ context: Context) throws {
        let vault = try context.unlockedVault()
        _ = try vault.sync()
        let epoch = try vault.rotateVaultKeys()
        _ = try vault.sync()
        Output.out("Started epoch \(epoch); every member was given its keys.\n")
    }
}
