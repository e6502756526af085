/// A command line that cannot be run as written: exit status 64, with the command's usage.
struct UsageError: Error {
    let message: String
    /// The command whose usage to show, if known.
    let command: CommandSpec?

    init(_ message: String, command: CommandSpec? = nil) {
        self.message = message
        self.command = command
    }
}
