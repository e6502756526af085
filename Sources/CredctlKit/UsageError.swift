/// A command line that cannot be run as written: exit status 64, with the command's usage.
struct UsageError: Error {
    let message: String
    /// The command whose usage to show, if known.
    let command: CommandSpec?
    /// The group whose commands to list (`host` for `credctl host`), if the command is not known.
    let group: String?

    init(_ message: String, command: CommandSpec? = nil) {
        self.message = message
        self.command = command
        group = nil
    }

    init(_ message: String, group: String) {
        self.message = message
        command = nil
        self.group = group
    }
}
