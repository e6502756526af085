import CredentialVault

struct DeviceListCommand: Command {
    static let path = ["device", "list"]
    static let spec = CommandSpec(
        path: path,
        summary: "List the vault's devices: state, how each joined, the epoch it holds.",
        overview: "List the vault's devices as the roster this device verified last gives them (sync first for the newest): name (the one chosen with init --device-name or device rename, else the host name and the start of the id), id, state (member, revoked and by whom, or pending: asking to join), how each joined, the newest epoch whose keys it holds, and when its newest change this device has applied was made (local time, ISO 8601; by that device's clock: a member not heard from for long may be cut off, or the remote withholds its objects). Pending requests are read from the remote when it can be reached. Without a remote, the devices as each announced itself when it first synced.",
        usage: ["device list [--json]"],
        options: [],
        positionals: 0...0,
        examples: ["credctl device list", "credctl device list --json"],
        printsData: true)

    init(_ parsed: ParsedCommand) throws {}

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let roster = try vault.rosterDevices()
        guard !roster.isEmpty else { return try announced(vault, context) }
        // Best effort: the roster is local, requests are only on the remote.
        let pending = ((try? vault.joinRequests()) ?? []).filter { !$0.approved }
        if context.json {
            let devices: [JSONValue] = roster.map { device in
                .object([("id", .string(device.id)), ("name", .optional(device.name)), ("state", .string(device.state.rawValue)),
                         ("joined", .string(device.joined)), ("revoked_by", .optional(device.revokedBy)), ("this_device", .bool(device.isThisDevice)),
                         ("epoch", .optional(device.epoch.map { Int($0) })), ("last_change", .optional(device.lastHeardMilliseconds.map { Int($0 / 1_000) }))])
            } + pending.map { request in
                .object([("id", .string(request.device)), ("name", .optional(request.name)), ("state", .string(DeviceSummary.State.pending.rawValue)),
                         ("code", .string(request.code)), ("expires", .int(Int(request.expires)))])
            }
            Output.json(.object([("epoch", .optional(vault.currentEpoch.map { Int($0) })), ("devices", .array(devices))]))
            return
        }
        let rows = roster.map { device in
            [device.name ?? "(name not readable)", device.id, device.state == .revoked ? "revoked by \(device.revokedBy ?? "?")" : "member", device.joined,
             device.epoch.map(String.init) ?? "", device.isThisDevice ? "(this device)" : device.lastHeardMilliseconds.map { LocalTime.iso(Int64($0 / 1_000)) } ?? "never"]
        } + pending.map { request in
            [request.name ?? "(not sealed to this device)", request.device, "pending (code \(request.code))", "asked to join", "", ""]
        }
        Output.out(Table.render(["NAME", "ID", "STATE", "JOINED", "EPOCH", "LAST CHANGE"], rows))
        if let epoch = vault.currentEpoch { Output.out("Epoch: \(epoch)\n") }
    }

    /// A vault with no remote of format 2: the devices announced in the config zone.
    private func announced(_ vault: Vault, _ context: Context) throws {
        let devices = try vault.devices()
        if context.json {
            Output.json(.object([("devices", .array(devices.map { device in
                .object([("id", .string(CanonicalUUID.text(device.id))), ("name", .string(device.displayName)),
                         ("first_seen", .int(Int(device.firstSeen))), ("this_device", .bool(CanonicalUUID.text(device.id) == vault.deviceID))])
            }))]))
            return
        }
        guard !devices.isEmpty else { Output.out("No devices have synced yet.\n"); return }
        Output.out(Table.render(["NAME", "ID", "FIRST SEEN", ""], devices.map { device in
            [device.displayName, CanonicalUUID.text(device.id), LocalTime.iso(device.firstSeen), CanonicalUUID.text(device.id) == vault.deviceID ? "this device" : ""]
        }))
    }
}
