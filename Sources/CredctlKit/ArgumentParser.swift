/// Splits a command line into global options, the command, and the command's own arguments.
///
/// Global options may appear anywhere. The command is the longest run of leading words that
/// names an entry in the dispatch table. After `--`, every word is positional.
struct ArgumentParser {
    /// The commands people type: matched, and suggested for a mistyped one.
    let commands: [any Command.Type]
    /// Commands for credctl's own scripts: matched, never suggested.
    var hidden: [any Command.Type] = []

    enum Result {
        case run(any Command.Type, ParsedCommand, GlobalOptions)
        case help(topic: [String], GlobalOptions)
        case version
    }

    func parse(_ arguments: [String]) throws -> Result {
        var globals = GlobalOptions()
        var rest: [String] = []
        var index = 0
        var afterDoubleDash = false
        while index < arguments.count {
            if !afterDoubleDash {
                if arguments[index] == "--" { afterDoubleDash = true; rest.append("--"); index += 1; continue }
                let used = try globals.consume(arguments, at: index)
                if used > 0 { index += used; continue }
            }
            rest.append(arguments[index])
            index += 1
        }
        if globals.version { return .version }
        if rest.first == "help" { return .help(topic: Array(rest.dropFirst()), globals) }
        let words = rest.prefix { !$0.hasPrefix("-") }
        guard let command = (commands + hidden).filter({ words.starts(with: $0.path) }).max(by: { $0.path.count < $1.path.count }) else {
            if globals.help || rest.isEmpty { return .help(topic: Array(words), globals) }
            if let first = rest.first, first.hasPrefix("-") {
                throw UsageError(Suggestion.message("Unknown option \(first)", suggesting: Suggestion.nearest(first, among: GlobalOptions.names)))
            }
            throw unknownCommand(Array(words))
        }
        if globals.help { return .help(topic: command.spec.path, globals) }
        let parsed = try parseOptions(Array(rest.dropFirst(command.spec.path.count)), spec: command.spec, globals: globals)
        return .run(command, parsed, globals)
    }

    /// A command line whose words name no command: a group without its subcommand lists the
    /// group's commands; anything else gets the nearest commands, if any are near.
    private func unknownCommand(_ words: [String]) -> UsageError {
        let paths = commands.map { $0.path }
        if let group = words.first, paths.contains(where: { $0.count > 1 && $0[0] == group }) {
            guard words.count > 1 else { return UsageError("'\(group)' needs a subcommand.", group: group) }
            let subcommands = paths.filter { $0.count > 1 && $0[0] == group }.map { $0[1] }
            let near = Suggestion.nearest(words[1], among: subcommands).map { "\(group) \($0)" }
            return UsageError(Suggestion.message("Unknown command '\(group) \(words[1])'", suggesting: near), group: group)
        }
        var seen: Set<[String]> = []
        let groups = paths.filter { $0.count > 1 }.map { [$0[0]] }.filter { seen.insert($0).inserted }
        let near = Suggestion.nearestCommands(to: words, among: paths + groups + [["help"]]).map { $0.joined(separator: " ") }
        return UsageError(Suggestion.message("Unknown command '\(words[0])'", suggesting: near))
    }

    private func parseOptions(_ tokens: [String], spec: CommandSpec, globals: GlobalOptions) throws -> ParsedCommand {
        var parsed = ParsedCommand(spec: spec)
        var index = 0
        var positionalOnly = false
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if positionalOnly || token == "-" || !token.hasPrefix("-") {
                parsed.positionals.append(token)
                continue
            }
            if token == "--" { positionalOnly = true; continue }
            let (name, inline) = GlobalOptions.split(token)
            guard let option = spec.option(named: name) else {
                let known = spec.options.map(\.name) + GlobalOptions.names
                throw UsageError(Suggestion.message("Unknown option \(name) for '\(spec.name)'", suggesting: Suggestion.nearest(name, among: known)), command: spec)
            }
            if option.value == nil {
                guard inline == nil else { throw UsageError("\(name) takes no value.", command: spec) }
                parsed.flags.insert(name)
                continue
            }
            if option.optionalNumber, inline == nil, index >= tokens.count || !tokens[index].allSatisfy(\.isASCIIDigitLike) {
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inline { value = inline } else {
                guard index < tokens.count else { throw UsageError("\(name) needs a value (\(option.value!)).", command: spec) }
                value = tokens[index]
                index += 1
            }
            if parsed.values[name] != nil && !option.repeatable { throw UsageError("\(name) was given twice.", command: spec) }
            parsed.values[name, default: []].append(value)
        }
        if globals.json && !spec.printsData { throw UsageError("'\(spec.name)' prints no data; --json does not apply.", command: spec) }
        guard spec.positionals.contains(parsed.positionals.count) else {
            let expected = spec.positionals.lowerBound == spec.positionals.upperBound ? "\(spec.positionals.lowerBound)" : "\(spec.positionals.lowerBound) to \(spec.positionals.upperBound)"
            throw UsageError(parsed.positionals.count < spec.positionals.lowerBound
                ? "'\(spec.name)' is missing an argument."
                : "'\(spec.name)' takes \(expected) argument(s); got \(parsed.positionals.count).", command: spec)
        }
        return parsed
    }
}

extension Character {
    /// 0 to 9 (an optional number's value is nothing else).
    fileprivate var isASCIIDigitLike: Bool { ("0"..."9").contains(self) }
}
