/// The description of one command: what help prints and what the parser accepts.
struct CommandSpec: Sendable {
    struct Option: Sendable {
        /// `--hostname`
        let name: String
        /// Placeholder for the value (`H`); nil for a flag.
        let value: String?
        let help: String
        var repeatable = false
        /// The value may be left out (`--wait [SECONDS]`): then only a number that follows is
        /// taken as it, and the option reads as a flag otherwise.
        var optionalNumber = false
        /// What a shell completes for the value.
        var completion: ArgumentCompletion? = nil
    }

    /// `["host", "add"]`
    let path: [String]
    /// One line for command lists (`credctl help`, completion descriptions): a whole phrase,
    /// never an overview cut short.
    let summary: String
    let overview: String
    /// Synopsis lines after `credctl`.
    let usage: [String]
    let options: [Option]
    /// How many positional arguments the command takes.
    let positionals: ClosedRange<Int>
    let examples: [String]
    /// Whether the command prints data (and so accepts `--json`).
    var printsData = false
    /// What a shell completes for the first positional argument.
    var argument: ArgumentCompletion? = nil

    var name: String { path.joined(separator: " ") }

    func option(named name: String) -> Option? { options.first { $0.name == name } }
}
