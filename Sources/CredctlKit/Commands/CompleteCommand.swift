import CredentialVault

/// `credctl __complete hosts|identities|groups|addresses`: what the completion scripts offer
/// from the vault, one per line. Hidden: it is in no help, man page or completion list.
///
/// It runs on every Tab, so it only reads config, as `host list` does: it never unlocks, never
/// prompts and changes no record. Whatever goes wrong (no vault yet, a damaged database) it
/// says nothing and exits 0 — its output lands in the shell's list, and an error there would be
/// offered as a completion. A name with a control character is left out rather than escaped:
/// escaped, it would be completed into a label that does not exist.
struct CompleteCommand: Command {
    static let path = ["__complete"]
    static let spec = CommandSpec(
        path: path,
        summary: "List labels or addresses for the shell completion scripts.",
        overview: "List host, identity or group labels, or secret addresses, one per line, for the shell completion scripts. Never unlocks; prints nothing when there is no vault.",
        // reduce, not joined(separator:), which costs every command a run-time type lookup:
        // each command's spec is built to find the one named.
        usage: ["__complete " + ArgumentCompletion.listings.compactMap(\.listing).reduce("") { $0.isEmpty ? $1 : $0 + "|" + $1 }],
        options: [],
        positionals: 1...1,
        examples: ["credctl __complete hosts"])

    let listing: ArgumentCompletion

    init(_ parsed: ParsedCommand) throws {
        guard let listing = ArgumentCompletion.listings.first(where: { $0.listing == parsed.positionals[0] }) else {
            throw UsageError("Nothing to complete called '\(parsed.positionals[0])'.", command: Self.spec)
        }
        self.listing = listing
    }

    func run(_ context: Context) throws {
        guard let vault = try? context.openVault(toRead: true), let names = try? names(in: vault) else { return }
        Output.out(names.filter { !$0.unicodeScalars.contains(where: Self.isControl) }.map { $0 + "\n" }.joined())
    }

    private func names(in vault: Vault) throws -> [String] {
        switch listing {
        case .hosts: return try vault.hosts().map(\.label)
        case .identities: return try vault.identities().map(\.label)
        case .groups: return try vault.groups().map(\.label)
        case .addresses:
            let hosts = try vault.hosts().filter { $0.passwordRef != nil }.map { "cred://host/\($0.label)/password" }
            let identities = try vault.identities().flatMap { identity in
                ["cred://identity/\(identity.label)/privkey"] + (identity.passphraseRef == nil ? [] : ["cred://identity/\(identity.label)/passphrase"])
            }
            return hosts + identities
        case .words: return []
        }
    }

    /// C0, DEL and C1: what `TerminalText` would escape (a line feed would also split the list).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
