import CredentialVault

struct DeviceApproveCommand: Command {
    static let path = ["device", "approve"]
    static let spec = CommandSpec(
        path: path,
        summary: "Make the device asking to join with code CODE a member.",
        overview: "Make the device asking to join with verification code CODE a member of the vault: it is given the vault's keys. Check first that CODE is the code the joining device printed; on a terminal the code and the device's name are shown and you are asked, unless --yes. Prints the confirmation code to type on the joining device.",
        usage: ["device approve CODE [--yes]"],
        options: [.init(name: "--yes", value: nil, help: "Do not ask; approve at once.")],
        positionals: 1...1,
        examples: ["credctl device approve 7K3M-Q9ZD-4X2P"])

    let parsed: ParsedCommand

    init(_ parsed: ParsedCommand) throws { self.parsed = parsed }

    func run(_ context: Context) throws {
        let vault = try context.openVault()
        let code = parsed.positionals[0]
        guard let request = try vault.joinRequests().first(where: { $0.code.matches(typed: code) }) else {
            throw CLIError(message: "No pending join request has the code \(code).", hint: "List them with: credctl device requests",
                           status: ExitStatus.notFound)
        }
        if !request.approved {
            try Confirmation.ask("Approve device \"\(request.name ?? "(name not sealed to this device)")\" (\(request.device)) with verification code \(request.code)?",
                                 yes: parsed.flag("--yes"))
        }
        try context.unlock(vault)
        let approved = try vault.approveJoin(code: request.code)
        Output.out("Approved \"\(approved.request.name ?? approved.request.device)\". On that device, give the confirmation code: \(approved.confirmation)\n")
    }
}
