import CredentialVault
import Glibc

/// How `init --join` and `remote set` join a vault this device is not a member of, and what
/// they say about it. Joining by approval: the device writes a request and prints its
/// verification code; a member runs `credctl device approve CODE` and gets a confirmation code,
/// typed back here (`--confirm`, or asked on a terminal).
enum JoinOptions {
    static let options: [CommandSpec.Option] = [
        RecoveryKeyFile.option,
        .init(name: "--name", value: "NAME", help: "The name this device goes by on the others (the host name by default)."),
        .init(name: "--confirm", value: "CODE", help: "The confirmation code credctl device approve printed on the approving device."),
        .init(name: "--wait", value: "SECONDS", help: "Wait for the approval (600 seconds unless given), checking every few seconds.", optionalNumber: true),
    ]

    static let defaultWait = 600

    static func credentials(_ parsed: ParsedCommand, joining: Bool) throws -> JoinCredentials {
        var join = JoinCredentials(name: parsed.value("--name"), confirmation: parsed.value("--confirm"))
        if joining, let file = parsed.value(RecoveryKeyFile.option.name) { join.recoveryKey = try RecoveryKeyFile.read(file) }
        return join
    }

    /// How long to wait for approval: 0 without `--wait`.
    static func waitSeconds(_ parsed: ParsedCommand) throws -> Int {
        if let text = parsed.value("--wait") {
            guard let seconds = Int(text), seconds >= 0, seconds <= 86_400 else { throw CLIError.input("--wait takes a number of seconds up to 86400, not '\(text)'.") }
            return seconds
        }
        return parsed.flag("--wait") ? defaultWait : 0
    }

    /// Binds (`attempt`) until joined, while waiting is allowed; asks for the confirmation code
    /// on a terminal when the approval is there and none was given. Exits 75 while unapproved.
    static func complete(_ parsed: ParsedCommand, _ first: BindOutcome, retry attempt: (JoinCredentials) throws -> BindOutcome,
                         join: JoinCredentials, place: String) throws -> BindOutcome {
        var outcome = first
        var join = join
        let deadline = time(nil) + Int(try waitSeconds(parsed))
        var announced = false
        while true {
            switch outcome {
            case .awaitingApproval(let code):
                if !announced {
                    Output.out("Asked to join the vault in \(place). Verification code: \(code)\n"
                               + "On a device of this vault, run: credctl device approve \(code)\n"
                               + "and check it shows this same code. Then give the confirmation code it prints: credctl init --join \(place) --confirm CODE\n")
                    announced = true
                }
            case .awaitingConfirmation:
                if join.confirmation == nil, Output.isTerminal(0) || Output.isTerminal(2),
                   let typed = try TerminalPrompt.ask(prompt: "A device approved this one. Confirmation code it printed: ", echo: true, what: "confirmation code") {
                    join.confirmation = typed.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
                    outcome = try attempt(join)
                    continue
                }
                throw CLIError(message: "A device approved this one; the join finishes with the confirmation code it printed.",
                               hint: "Run again with --confirm CODE.", status: ExitStatus.notYetSynced)
            default:
                return outcome
            }
            guard time(nil) < deadline else {
                throw CLIError(message: "Waiting for a device of the vault to approve this one (code \(codeOf(outcome))).",
                               hint: "Run the same command again, with --wait to wait for the approval.", status: ExitStatus.notYetSynced)
            }
            sleep(2)
            outcome = try attempt(join)
        }
    }

    private static func codeOf(_ outcome: BindOutcome) -> String {
        if case .awaitingApproval(let code) = outcome { return code }
        return ""
    }
}
