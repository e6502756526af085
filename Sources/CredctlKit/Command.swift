/// One subcommand: its spec, validation of its arguments (before anything runs), and its work.
protocol Command {
    static var spec: CommandSpec { get }
    /// Validates the parsed arguments; throws `UsageError` for anything that cannot run.
    init(_ parsed: ParsedCommand) throws
    func run(_ context: Context) throws
}
