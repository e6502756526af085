import FoundationEssentials
import CredentialVault

struct IdentityShowCommand: Command {
    static let spec = CommandSpec(
        path: ["identity", "show"],
        summary: "Show one identity and its public key.",
        overview: "Show one identity and its public key. Never prints the private key or passphrase.",
        usage: ["identity show LABEL [--json]"],
        options: [],
        positionals: 1...1,
        examples: ["credctl identity show laptop", "credctl identity show laptop --json"],
        printsData: true,
        argument: .identities)

    let label: String

    init(_ parsed: ParsedCommand) throws { label = parsed.positionals[0] }

    func run(_ context: Context) throws {
        let identity = try context.openVault().identity(label)
        if context.json { Output.json(RecordJSON.identity(identity)); return }
        Output.out([
            "Label:       \(identity.label)",
            "Id:          \(CanonicalUUID.text(identity.id))",
            "Type:        \(identity.keyType.rawValue)",
            "User:        \(identity.username ?? "-")",
            "Passphrase:  \(identity.passphraseRef == nil ? "none stored" : "stored")",
            "Public key:  \(identity.publicKey)",
        ].joined(separator: "\n") + "\n")
    }
}
