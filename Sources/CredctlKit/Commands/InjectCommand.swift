import CredentialVault
import Glibc
import SystemErrors
import Sodium

struct InjectCommand: Command {
    static let path = ["inject"]
    static let spec = CommandSpec(
        path: path,
        summary: "Render a template, replacing each {{ cred://… }} with its secret.",
        overview: "Render a template, replacing each {{ cred://... }} with the secret it names (other {{ ... }} are left as they are). Every address is opened before anything is written: one that has not synced to this device (75), a locked vault (77) or a missing record leaves OUT untouched. OUT is written only if it is new or not readable by others (mode 0600 or narrower), through a temporary file renamed into place. Standard output on a terminal is refused unless --force-tty is given.",
        usage: ["inject [-i IN] [-o OUT] [--force-tty]"],
        options: [.init(name: "-i", value: "IN", help: "Read the template from IN (default: standard input)."),
                  .init(name: "-o", value: "OUT", help: "Write to OUT, mode 0600 (default: standard output)."),
                  .init(name: "--force-tty", value: nil, help: "Print to standard output even though it is a terminal.")],
        positionals: 0...0,
        examples: ["credctl inject -i app.env.tpl -o app.env", "printf 'password={{ cred://host/db/password }}\\n' | credctl inject > /dev/shm/db.conf"])

    let input: String?
    let output: String?
    let forceTerminal: Bool

    init(_ parsed: ParsedCommand) throws {
        input = parsed.value("-i")
        output = parsed.value("-o")
        forceTerminal = parsed.flag("--force-tty")
    }

    func run(_ context: Context) throws {
        if output == nil {
            try RevealGuard.check(context, forced: forceTerminal)
            try PrivateOutputFile.checkStandardOutput()
        }
        let template = TemplateRendering(try readTemplate())
        let secrets = try SecretAddresses.open(template.addresses, context: context)
        let rendered = try template.render(secrets)
        if let output {
            try PrivateOutputFile.write(rendered, to: output)
        } else {
            Output.secret(rendered)
        }
    }

    private func readTemplate() throws -> [UInt8] {
        let fd = input.map { open($0, O_RDONLY | O_CLOEXEC) } ?? 0
        guard fd >= 0 else { throw CLIError(message: "Cannot read \(input ?? "-"): \(SystemError.describe(errno)).", hint: nil, status: ExitStatus.notFound) }
        defer { if input != nil { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += chunk[..<n]
        }
        return bytes
    }
}
