import CredentialVault

struct DeviceRejectCommand: Command {
    static let path = ["device", "reject"]
    static let spec = CommandSpec(
        path: path,
        summary: "Remove the join request with verification code CODE.",
        overview: "Remove the join request with verification code CODE from the remote: that device is not added.",
        usage: ["device reject CODE"],
        options: [],
        positionals: 1...1,
        examples: ["credctl device reject 7K3M-Q9ZD-4X2P"])

    let parsed: ParsedCommand

    init(_ parsed: ParsedCommand) throws { self.parsed = parsed }

    func run(_ context: Context) throws {
        let rejected = try context.openVault().rejectJoin(code: parsed.positionals[0])
        Output.out("Rejected the request of \"\(rejected.name ?? rejected.device)\" (\(rejected.code)).\n")
    }
}
