/// One subcommand: its spec, validation of its arguments (before anything runs), and its work.
protocol Command {
    /// The words that name the command (`["host", "add"]`), apart from its spec: dispatching
    /// a command line compares every command's path, and building all the specs (help text,
    /// options, examples) for that cost each run more than the command's own parsing.
    static var path: [String] { get }
    static var spec: CommandSpec { get }
    /// Validates the parsed arguments; throws `UsageError` for anything that cannot run.
    init(_ parsed: ParsedCommand) throws
    func run(_ context: Context) throws
}
