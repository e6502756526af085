import CredentialVault

struct SecretPinCommand: Command {
    static let path = ["secret", "pin"]
    static let spec = CommandSpec(
        path: path,
        summary: "Choose where a secret lives: on this device only, or syncable.",
        overview: "Choose where a secret lives. --device-only keeps it on this device only: a syncable secret is deleted on every other device (a deletion that travels) and kept here, and migration leaves it alone. --syncable lets it sync again (sealed under the vault key at once when a remote is set). REF is a reference key or a cred:// address. Needs the vault unlocked, except to pin a secret that is already device-only.",
        usage: ["secret pin REF --device-only", "secret pin REF --syncable"],
        options: [.init(name: "--device-only", value: nil, help: "Keep the secret on this device only."),
                  .init(name: "--syncable", value: nil, help: "Let the secret sync to the vault's other devices.")],
        positionals: 1...1,
        examples: ["credctl secret pin cred://host/bastion/password --device-only", "credctl secret pin cred://identity/deploy/privkey --syncable"],
        argument: .addresses)

    let reference: String
    let deviceOnly: Bool

    init(_ parsed: ParsedCommand) throws {
        reference = parsed.positionals[0]
        switch (parsed.flag("--device-only"), parsed.flag("--syncable")) {
        case (true, false): deviceOnly = true
        case (false, true): deviceOnly = false
        default: throw UsageError("Give exactly one of --device-only and --syncable.", command: Self.spec)
        }
    }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let reference = try vault.reference(for: self.reference)
        let name = vault.describeSecret(reference.key)
        // Made syncable with a remote bound, it is sealed under the vault key at once.
        if !deviceOnly && vault.hasRemote && !vault.isUnlocked { try context.unlock(vault) }
        let item = try context.unlockingIfNeeded(vault) { try vault.pin(reference, deviceOnly: deviceOnly) }
        if deviceOnly {
            Output.out("The \(name) now stays on this device; other devices delete their copy when they sync.\n")
        } else if item.availability == .syncable {
            Output.out("The \(name) is syncable; it goes to other devices with the next sync.\n")
        } else {
            Output.out("The \(name) is no longer pinned; it becomes syncable \(vault.hasRemote ? "at the next unlock" : "once a remote is set").\n")
        }
    }
}
