import CredentialVault

struct DeviceRenameCommand: Command {
    static let path = ["device", "rename"]
    static let spec = CommandSpec(
        path: path,
        summary: "Give a device of the vault a name of your choosing.",
        overview: "Give a device of the vault the name you choose: this device or another, named by its id, a unique start of its id, or its current name. The name is kept in the device's config record, so every device shows it once synced; it needs no unlocking. Names are unique regardless of case.",
        usage: ["device rename ID|NAME NEW-NAME"],
        options: [],
        positionals: 2...2,
        examples: ["credctl device rename laptop-3f0c work-laptop", "credctl device rename 3f0c1d2e old-phone"])

    let parsed: ParsedCommand

    init(_ parsed: ParsedCommand) throws { self.parsed = parsed }

    func run(_ context: Context) throws {
        let id = try context.openVault().renameDevice(parsed.positionals[0], to: parsed.positionals[1])
        Output.out("Device \(id) is now called '\(parsed.positionals[1])'; other devices show it after they sync.\n")
    }
}
