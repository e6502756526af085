import CredentialVault

struct IdentityRemoveCommand: Command {
    static let path = ["identity", "rm"]
    static let spec = CommandSpec(
        path: path,
        summary: "Remove an identity with its sealed key and passphrase.",
        overview: "Remove an identity and its sealed key and passphrase (leaving deletion markers). Refused while hosts use it.",
        usage: ["identity rm LABEL"],
        options: [],
        positionals: 1...1,
        examples: ["credctl identity rm old-laptop"],
        argument: .identities)

    let label: String

    init(_ parsed: ParsedCommand) throws { label = parsed.positionals[0] }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let identity = try vault.identity(label)
        try vault.removeIdentity(CanonicalUUID.text(identity.id))
        Output.out("Removed identity '\(identity.label)'.\n")
    }
}
