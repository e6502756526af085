/// A command's arguments after parsing: positionals, option values and flags.
struct ParsedCommand: Sendable {
    let spec: CommandSpec
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// An integer option, with a usage error for anything else.
    func integer(_ name: String) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text) else { throw UsageError("\(name) needs a number, not '\(text)'.", command: spec) }
        return number
    }

    /// Rejects options that cannot be combined.
    func exclusive(_ names: String...) throws {
        let given = names.filter { values[$0] != nil || flags.contains($0) }
        if given.count > 1 { throw UsageError("\(given.joined(separator: " and ")) cannot be used together.", command: spec) }
    }
}
