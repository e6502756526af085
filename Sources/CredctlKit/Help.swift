/// Help text: OVERVIEW, USAGE, OPTIONS, EXAMPLES for a command; a command index otherwise.
enum Help {
    static let version = "credctl 0.1.0"

    static func text(for spec: CommandSpec) -> String {
        var lines = ["OVERVIEW: " + spec.overview, "", "USAGE:"]
        lines += spec.usage.map { "  credctl " + $0 }
        lines += ["", "OPTIONS:"]
        let options = spec.options + GlobalOptions.specs.filter { $0.name != "--json" || spec.printsData }
        let width = (options.map { optionTitle($0).count }.max() ?? 0) + 2
        lines += options.map { "  " + optionTitle($0).padding(width) + $0.help }
        lines += ["", "EXAMPLES:"] + spec.examples.map { "  " + $0 }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The index for `credctl`, or for a group such as `credctl host`.
    static func index(group: String?) -> String {
        var lines = [
            "OVERVIEW: credctl keeps SSH hosts and identities in config that syncs freely, and their passwords and keys sealed on a separate track.",
            "", "USAGE:", "  credctl [--vault DIR] [--passphrase-file FILE | --key-file FILE] \(group.map { $0 + " " } ?? "")COMMAND [OPTIONS]", "", "COMMANDS:",
        ]
        lines += commandList(group: group)
        lines += ["", "OPTIONS:"] + GlobalOptions.specs.map { "  " + optionTitle($0).padding(26) + $0.help }
        lines += ["  --version".padding(28) + "Print the version."]
        if group == nil {
            lines += ["", "SECRETS:", "  " + ReferenceText.secretInput]
            lines += ["", "ENVIRONMENT:"] + ReferenceText.environment.map { "  " + $0.name.padding(26) + $0.meaning }
            lines += ["", "EXIT STATUS:"] + ReferenceText.exitStatuses.map { "  " + String($0.status).padding(4) + $0.meaning }
        }
        lines += ["", "See 'credctl help COMMAND' for a command's options and examples, 'credctl help GROUP' for the commands of a group such as host; 'credctl help --man' prints this as a man page."]
        return lines.joined(separator: "\n") + "\n"
    }

    static func optionTitle(_ option: CommandSpec.Option) -> String {
        option.value.map { "\(option.name) \($0)" } ?? option.name
    }

    /// One line per command, its name and summary: every command, or those of one group.
    static func commandList(group: String?) -> [String] {
        let specs = CommandTable.all.map { $0.spec }.filter { group == nil || $0.path.first == group }
        let width = (specs.map { $0.name.count }.max() ?? 0) + 2
        return specs.map { "  " + $0.name.padding(width) + $0.summary }
    }
}
