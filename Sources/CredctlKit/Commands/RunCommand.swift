import CredentialVault
import Launch

struct RunCommand: Command {
    static let path = ["run"]
    static let spec = CommandSpec(
        path: path,
        summary: "Run a command with secrets from the vault in its environment.",
        overview: "Run COMMAND with secrets in its environment: each --env NAME=REF sets NAME to the secret REF names (a cred:// address or a reference key), and every inherited variable whose value is a cred:// address is replaced by that secret. Secrets never appear in the command line. Every reference is opened before COMMAND starts: one that has not synced to this device (75), a locked vault (77) or a missing record stops here and COMMAND does not run. COMMAND replaces credctl, so its exit status is the command's (127: not found). COMMAND does not inherit CREDCTL_VAULT, CREDCTL_KEY_FILE or CREDCTL_PASSPHRASE_FILE.",
        usage: ["run [--env NAME=REF ...] -- COMMAND [ARG ...]"],
        options: [.init(name: "--env", value: "NAME=REF", help: "Set NAME to the secret REF names (repeatable).", repeatable: true)],
        positionals: 1...Int.max,
        examples: ["credctl run --env PGPASSWORD=cred://host/db/password -- psql -h db.internal app",
                   "DEPLOY_KEY=cred://identity/deploy/privkey credctl run -- ./deploy.sh"])

    let assignments: [(name: String, address: String)]
    let command: [String]

    init(_ parsed: ParsedCommand) throws {
        assignments = try parsed.all("--env").map { pair in
            guard let equals = pair.firstIndex(of: "="), case let name = String(pair[..<equals]), Self.isVariableName(name) else {
                throw UsageError("--env takes NAME=REF with NAME a variable name (letters, digits, _), not '\(pair)'.", command: Self.spec)
            }
            return (name, String(pair[pair.index(after: equals)...]))
        }
        command = parsed.positionals
    }

    func run(_ context: Context) throws {
        var wanted = Dictionary(assignments.map { ($0.name, $0.address) }, uniquingKeysWith: { _, last in last })
        for (name, value) in context.environment where wanted[name] == nil && value.hasPrefix(SecretAddresses.scheme) {
            wanted[name] = value
        }
        let secrets = try SecretAddresses.open(Array(Set(wanted.values)).sorted(), context: context)
        do {
            let environment = try context.childEnvironment()
            for (name, address) in wanted { try environment.set(name, secret: secrets[address]!) }
            try ProcessImage.replace(with: command, environment: environment, path: context.environment["PATH"])
        } catch let error as LaunchError {
            throw CLIError(message: error.message, hint: nil, status: error.status)
        }
    }

    static func isVariableName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(0x30...0x39).contains(first) else { return false }
        return name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x5F }
    }
}
