import CredentialVault
import Glibc
import Launch
import SystemErrors

/// `credctl`'s entry point: parse, validate, run, and turn every failure into a message and a
/// documented exit status.
public enum CLI {
    /// `endsProcess`: the process exits when this returns (the credctl program), so what the
    /// kernel releases at exit need not be torn down first (`VaultsKeptUntilExit`).
    public static func main(_ arguments: [String], environment: [String: String], endsProcess: Bool = false) -> Int32 {
        // Every file this process creates is private to the user.
        umask(0o077)
        // Before anything is read — the askpass client below receives a password too.
        do {
            try ProcessHardening.apply()
        } catch {
            report("\(error)", hint: nil)
            return ExitStatus.failure
        }
        Output.secureStandardDescriptors()
        // Run by ssh or ssh-add as the askpass program of a `credctl ssh`: one argument, the
        // prompt — never a command or option of credctl's own (a LocalCommand may run one).
        if let socket = environment[AskpassServer.socketVariable], let token = environment[AskpassServer.tokenVariable],
           arguments.count <= 1, !(arguments.first.map(isOwnWord) ?? false) {
            return AskpassClient.run(prompt: arguments.first ?? "", socket: socket, token: token, environment: environment)
        }
        let status = run(arguments, environment: environment, endsProcess: endsProcess)
        if status == ExitStatus.success, let error = Output.standardOutputFailed {
            report("Could not write to standard output (\(SystemError.describe(error))); the output is incomplete.", hint: nil)
            return ExitStatus.failure
        }
        return status
    }

    private static func run(_ arguments: [String], environment: [String: String], endsProcess: Bool) -> Int32 {
        let parser = ArgumentParser(commands: CommandTable.all, hidden: CommandTable.hidden)
        do {
            switch try parser.parse(arguments) {
            case .version:
                Output.out(Help.version + "\n")
            case .help(let topic, _):
                try printHelp(topic)
            case .run(let type, let parsed, let globals):
                let command = try type.init(parsed)
                let context = Context(globals: globals, environment: environment, keptUntilExit: endsProcess ? VaultsKeptUntilExit() : nil)
                // Also after a failure: an edit committed before it is to be sent all the same.
                defer {
                    context.tellAgentOfEdits()
                    context.keptUntilExit?.commandEnded()
                }
                try command.run(context)
            }
            return ExitStatus.success
        } catch let error as ChildExit {
            return error.status
        } catch {
            let report = report(for: error)
            // Before parsing succeeds the options are not known; a `--json` before any `--` counts.
            report.print(json: arguments.prefix(while: { $0 != "--" }).contains("--json"))
            return report.status
        }
    }

    /// What a failure says, and the exit status it ends with.
    private static func report(for error: any Error) -> ErrorReport {
        switch error {
        case let error as UsageError:
            let topic = error.command.map { " " + $0.name } ?? error.group.map { " " + $0 } ?? ""
            var report = ErrorReport(code: "usage", message: error.message, hint: "see 'credctl help\(topic)'.", status: ExitStatus.usage)
            if let spec = error.command {
                report.details = ["Usage: " + spec.usage.map { "credctl " + $0 }.joined(separator: "\n       ")]
            } else if let group = error.group {
                report.details = ["Commands:\n" + Help.commandList(group: group).joined(separator: "\n")]
            }
            return report
        case let error as CLIError:
            return ErrorReport(code: ErrorReport.code(forStatus: error.status), message: error.message, hint: error.hint, status: error.status)
        default:
            let error = VaultError.from(error)
            return ErrorReport(code: error.code.rawValue, message: error.message, hint: error.hint, status: ExitStatus.status(for: error.code))
        }
    }

    private static func isOwnWord(_ word: String) -> Bool {
        word.hasPrefix("-") || word == "help" || (CommandTable.all + CommandTable.hidden).contains { $0.path.first == word }
    }

    private static func report(_ message: String, hint: String?) {
        ErrorReport(code: "failure", message: message, hint: hint, status: ExitStatus.failure).print(json: false)
    }

    private static func printHelp(_ topic: [String]) throws {
        if topic.isEmpty { Output.out(Help.index(group: nil)); return }
        if topic == ["--man"] { Output.out(ManPage.render()); return }
        if let command = (CommandTable.all + CommandTable.hidden).first(where: { $0.spec.path == topic }) {
            Output.out(Help.text(for: command.spec))
        } else if CommandTable.groups.contains(topic[0]) && topic.count == 1 {
            Output.out(Help.index(group: topic[0]))
        } else {
            let paths = CommandTable.all.map { $0.spec.path } + CommandTable.groups.map { [$0] }
            let near = Suggestion.nearestCommands(to: topic, among: paths).map { $0.joined(separator: " ") }
            throw UsageError(Suggestion.message("No help for '\(topic.joined(separator: " "))': there is no such command", suggesting: near))
        }
    }
}
