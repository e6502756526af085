struct CompletionCommand: Command {
    static let path = ["completion"]
    static let spec = CommandSpec(
        path: path,
        summary: "Print a shell completion script for bash, zsh or fish.",
        overview: "Print a shell completion script for bash, zsh or fish. It completes commands, options and their fixed values, and the labels of hosts, identities and groups and the cred:// addresses of secrets where a command takes them, read from the vault as you type (from the vault --vault names on the line being completed, else CREDCTL_VAULT or the default) without unlocking it.",
        usage: ["completion bash|zsh|fish"],
        options: [],
        positionals: 1...1,
        examples: ["source <(credctl completion bash)", "credctl completion zsh > \"${fpath[1]}/_credctl\"",
                   "credctl completion fish > ~/.config/fish/completions/credctl.fish"],
        argument: .words(CompletionScript.shells))

    let script: String

    init(_ parsed: ParsedCommand) throws {
        guard let script = CompletionScript.script(for: parsed.positionals[0]) else {
            throw UsageError("No completion for '\(parsed.positionals[0])'; choose bash, zsh or fish.", command: Self.spec)
        }
        self.script = script
    }

    func run(_ context: Context) throws { Output.out(script) }
}
