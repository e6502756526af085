import CredentialVault

struct DeviceListCommand: Command {
    static let spec = CommandSpec(
        path: ["device", "list"],
        overview: "List the vault's devices, as each announced itself when it first synced.",
        usage: ["device list [--json]"],
        options: [],
        positionals: 0...0,
        examples: ["credctl device list", "credctl device list --json"],
        printsData: true)

    init(_ parsed: ParsedCommand) throws {}

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let devices = try vault.devices()
        if context.json {
            Output.json(.object([("devices", .array(devices.map { device in
                .object([("id", .string(CanonicalUUID.text(device.id))), ("name", .string(device.displayName)),
                         ("first_seen", .int(Int(device.firstSeen))), ("this_device", .bool(CanonicalUUID.text(device.id) == vault.deviceID))])
            }))]))
            return
        }
        guard !devices.isEmpty else { Output.out("No devices have synced yet.\n"); return }
        Output.out(Table.render(["NAME", "ID", "FIRST SEEN (UNIX)", ""], devices.map { device in
            [device.displayName, CanonicalUUID.text(device.id), String(device.firstSeen), CanonicalUUID.text(device.id) == vault.deviceID ? "this device" : ""]
        }))
    }
}
