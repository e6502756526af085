/// Secrets are not printed onto a terminal (shoulder surfing, scrollback) unless forced.
enum RevealGuard {
    static func check(_ context: Context, forced: Bool) throws {
        guard !forced, context.stdoutIsTerminal else { return }
        throw CLIError(message: "Refusing to print a secret to a terminal.",
                       hint: "Pipe or redirect the output (credctl read REF | …), or add --force-tty.", status: ExitStatus.usage)
    }
}
