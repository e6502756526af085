import CredentialVault
import Keyring

struct ImportKeyringCommand: Command {
    static let path = ["import", "keyring"]
    static let spec = CommandSpec(
        path: path,
        summary: "Bring passwords kept in the desktop keyring in as hosts.",
        overview: "Bring passwords kept in the desktop keyring in as hosts. An item becomes a host when its attributes name an SSH host: server, host or hostname; user, username or login; port; and protocol, which must be ssh, sftp or scp (without --attribute, items with no protocol are skipped: a database or web password must not become an SSH host by accident; pick such items with --attribute). Its password is stored device-only; once a remote is set, the next unlock makes it syncable. A host with the same host name, port and user is the same host: importing again creates no duplicates, gives a host without a password the item's, and keeps a different password the vault already holds. Lists every item found and what became of it; never prints a secret, and reads the secret only of items it imports. Items of a locked collection are skipped (nothing is unlocked at the desktop). A new host is labelled with the item's label when that has no spaces, else user@host.",
        usage: ["import keyring [--attribute NAME=VALUE ...] [--dry-run] [--json]"],
        options: [.init(name: "--attribute", value: "NAME=VALUE", help: "Import only items with this attribute (repeatable; all must match).", repeatable: true),
                  .init(name: "--dry-run", value: nil, help: "List what would be imported; change nothing and open no secret.")],
        positionals: 0...0,
        examples: ["credctl import keyring --dry-run", "credctl import keyring --attribute protocol=ssh",
                   "credctl import keyring --attribute server=web1.example.com --attribute user=deploy"],
        printsData: true)

    let attributes: [String: String]
    let dryRun: Bool

    init(_ parsed: ParsedCommand) throws {
        var attributes: [String: String] = [:]
        for pair in parsed.all("--attribute") {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw UsageError("--attribute takes NAME=VALUE, not '\(pair)'.", command: Self.spec)
            }
            let name = String(pair[..<equals])
            guard attributes[name] == nil else { throw UsageError("--attribute \(name) was given twice; an item has one value per attribute.", command: Self.spec) }
            attributes[name] = String(pair[pair.index(after: equals)...])
        }
        self.attributes = attributes
        dryRun = parsed.flag("--dry-run")
    }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let items: [KeyringItem]
        do {
            let dryRun = self.dryRun, requireProtocol = attributes.isEmpty
            items = try Keyring.searchAll(attributes) { !dryRun && Vault.isKeyringImportCandidate($0, requireProtocol: requireProtocol) }
        } catch {
            throw CLIError(message: "The desktop keyring cannot be searched: \(error.message)",
                           hint: "Run this in the desktop session whose keyring holds the passwords.", status: ExitStatus.unavailable)
        }
        if !dryRun && !vault.isUnlocked && !items.isEmpty { try context.unlock(vault) }
        let entries = try vault.importKeyringItems(items, dryRun: dryRun, requireProtocol: attributes.isEmpty)
        if context.json {
            Output.json(.object([
                ("dry_run", .bool(dryRun)),
                ("items", .array(entries.map { entry in
                    .object([("item_label", .string(entry.itemLabel)), ("action", .string(entry.action.rawValue)), ("host", .optional(entry.host)),
                             ("endpoint", .optional(entry.endpoint)), ("reason", .optional(entry.reason))])
                })),
            ]))
            return
        }
        guard !entries.isEmpty else {
            Output.out("The desktop keyring holds no item" + (attributes.isEmpty ? "" : " with those attributes") + ".\n")
            return
        }
        Output.out(Table.render(["ACTION", "HOST", "ENDPOINT", "KEYRING ITEM", "NOTE"], entries.map { entry in
            [text(entry.action), entry.host.map(CanonicalUUID.printable) ?? "-", entry.endpoint ?? "-", CanonicalUUID.printable(entry.itemLabel), entry.reason ?? ""]
        }))
        let locked = entries.filter { $0.reason == KeyringImportEntry.lockedReason }.count
        if locked > 0 {
            Output.out("\(locked) item\(locked == 1 ? " is" : "s are") in a locked collection: unlock the keyring at the desktop and import again.\n")
        }
        let stored = entries.filter { $0.action == .created || $0.action == .passwordAdded }.count
        if stored > 0 && !dryRun {
            Output.out("\(stored) password\(stored == 1 ? "" : "s") stored device-only; with a remote set, the next unlock makes \(stored == 1 ? "it" : "them") syncable.\n")
        }
    }

    private func text(_ action: KeyringImportEntry.Action) -> String {
        switch action {
        case .created: dryRun ? "would create" : "created"
        case .passwordAdded: dryRun ? "would add password" : "password added"
        case .unchanged: "unchanged"
        case .keptVaultPassword: "kept vault's"
        case .exists: "exists"
        case .skipped: "skipped"
        }
    }
}
