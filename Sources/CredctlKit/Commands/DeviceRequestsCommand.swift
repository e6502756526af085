import CredentialVault

struct DeviceRequestsCommand: Command {
    static let path = ["device", "requests"]
    static let spec = CommandSpec(
        path: path,
        summary: "List the devices asking to join, with their verification codes.",
        overview: "List the devices asking to join the vault (credctl init --join), with the verification code each printed and the name it gave. Approve one with credctl device approve CODE once its code matches the one on that device.",
        usage: ["device requests [--json]"],
        options: [],
        positionals: 0...0,
        examples: ["credctl device requests"],
        printsData: true)

    init(_ parsed: ParsedCommand) throws {}

    func run(_ context: Context) throws {
        let requests = try context.openVault().joinRequests()
        if context.json {
            Output.json(.object([("requests", .array(requests.map { request in
                .object([("device", .string(request.device)), ("name", request.name.map(JSONValue.string) ?? .null), ("code", .string(request.code)),
                         ("expires", .int(Int(request.expires))), ("approved", .bool(request.approved))])
            }))]))
            return
        }
        guard !requests.isEmpty else { Output.out("No device is asking to join.\n"); return }
        Output.out(Table.render(["CODE", "NAME", "DEVICE", "EXPIRES (UNIX)", "STATE"], requests.map { request in
            [request.code, request.name ?? "(not sealed to this device)", request.device, String(request.expires),
             request.approved ? "approved; waiting for its confirmation" : "pending"]
        }))
    }
}
