import CredentialVault
import Glibc

struct DeviceRevokeCommand: Command {
    static let path = ["device", "revoke"]
    static let spec = CommandSpec(
        path: path,
        summary: "Shut a device out of the vault (a lost or stolen laptop).",
        overview: "Shut a device out of the vault (a lost or stolen laptop): after syncing, append its revocation with its cutoffs and a new epoch whose keys every other member and the recovery key get and it does not; seal this device's secrets in the new epoch, and sync. Its objects written after the cutoffs are refused by every member. Prints the exposure report: every secret it could read (change each at its source); never a value. On a terminal you are asked first, unless --yes.",
        usage: ["device revoke ID|NAME [--yes] [--json] [--recovery-key-file FILE]"],
        options: [.init(name: "--yes", value: nil, help: "Do not ask; revoke at once."),
                  .init(name: "--recovery-key-file", value: "FILE", help: "When the device joined with the recovery key (so its holder knows it), the key is replaced: write the new one to FILE (a new file, mode 0600) instead of showing it.")],
        positionals: 1...1,
        examples: ["credctl device revoke old-laptop", "credctl device revoke 3f0c1d2e-5a6b-4c7d-8e9f-0a1b2c3d4e5f --yes --json"],
        printsData: true)

    let parsed: ParsedCommand

    init(_ parsed: ParsedCommand) throws { self.parsed = parsed }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let named = parsed.positionals[0]
        if let file = parsed.value("--recovery-key-file"), access(file, F_OK) == 0 {
            throw CLIError.input("\(file) exists; a new recovery key goes to a new file, never over another.", hint: "Choose another --recovery-key-file.")
        }
        // The cutoffs are the newest batches this device has read of it: read everything first.
        _ = try vault.sync()
        let devices = try vault.rosterDevices()
        let matching = devices.filter { $0.state == .member && ($0.id == named || $0.name == named) }
        guard let device = matching.first, matching.count == 1 else {
            throw CLIError(message: matching.isEmpty ? "No member of this vault is called or numbered '\(named)'." : "\(matching.count) members are called '\(named)'.",
                           hint: "List them with: credctl device list", status: matching.isEmpty ? ExitStatus.notFound : ExitStatus.dataError)
        }
        try Confirmation.ask("Revoke device \"\(device.name ?? "(unnamed)")\" (\(device.id))? It will no longer sync, and every secret it could read should be changed at its source.",
                             yes: parsed.flag("--yes"))
        try context.unlock(vault)
        let file = parsed.value("--recovery-key-file"), json = context.json
        let (revoked, _) = try vault.revokeDevice(device.id) { recoveryKey in
            Output.err("It may know the recovery key (it made, showed or joined with it), so the vault gets a new one; the old one no longer adds a device.\n")
            try RecoveryKeyFile.deliver(recoveryKey, to: file, besideJSON: json)
        }
        _ = try vault.sync()
        let references = try vault.exposedReferences()
        if context.json {
            Output.json(.object([("revoked", .string(revoked)), ("name", .optional(device.name)), ("epoch", .optional(vault.currentEpoch.map { Int($0) })),
                                 ("config_exposed", .bool(true)),
                                 ("secrets", .array(references.map { .object([("reference", .string($0)), ("description", .string(vault.describeSecret($0)))]) }))]))
            return
        }
        Output.out("Revoked \"\(device.name ?? revoked)\" (\(revoked)); the vault is in epoch \(vault.currentEpoch.map(String.init) ?? "?") now, which it does not hold.\n")
        Output.out("It could read all config (hosts, user names, forwards) up to now, and these \(references.count) secrets: change this at its source:\n")
        for reference in references { Output.out("  \(vault.describeSecret(reference))  (\(reference))\n") }
    }
}
