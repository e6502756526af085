import CredentialVault
import Glibc

struct ExportSSHConfigCommand: Command {
    static let path = ["export", "ssh-config"]
    static let spec = CommandSpec(
        path: path,
        summary: "Write every host as an ssh_config Host block, with no secrets.",
        overview: "Write every host as an ssh_config Host block (HostName, Port, User, ProxyJump, forwards), so the hosts can be used without credctl. No secret and no key path is written. A label ssh cannot take as a Host name is written with '-' for the offending characters and the label in a comment. Never needs unlocking. -o FILE refuses to replace an existing file unless --force is given.",
        usage: ["export ssh-config [-o FILE [--force]]"],
        options: [.init(name: "-o", value: "FILE", help: "Write to FILE (created 0600) instead of standard output."),
                  .init(name: "--force", value: nil, help: "Replace FILE if it exists.")],
        positionals: 0...0,
        examples: ["credctl export ssh-config > ~/.ssh/config.d/credctl", "credctl export ssh-config -o ~/hosts.conf"])

    let output: String?
    let force: Bool

    init(_ parsed: ParsedCommand) throws {
        output = parsed.value("-o")
        force = parsed.flag("--force")
        if force && output == nil { throw UsageError("--force goes with -o FILE.", command: Self.spec) }
    }

    func run(_ context: Context) throws {
        let text = try context.openVault(toRead: true).exportSSHConfig()
        guard let output else { return Output.out(text) }
        try PrivateOutputFile.write(try SecretBytes(copying: Array(text.utf8)), to: output, secret: false, replace: force)
    }
}
